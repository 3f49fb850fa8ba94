#!/usr/bin/env bash
# Session 11 run 7 (the command given to the device tool): cuBLASLt with a plan cached per shape against
# cublasSgemm, host time warm and after a pause, at 1024^3 and 2048^3 (experiment lt_host.cu).
cd .device/exp && nvidia-smi --query-gpu=name,serial --format=csv,noheader && ./lt_host 25 | tee $OUT/lt-host.md
