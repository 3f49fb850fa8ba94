#!/usr/bin/env bash
# Session 16 run 2: an FP32 emulation from six INT8 products built from cuBLAS calls
# (int8_emulation_cublas.cu) against cuBLAS SGEMM, EGEMM's EmulatedFP32 and three cuBLAS
# FP16 gemms, sustained, same inputs, one run; SM clock and power sampled every 100 ms.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run2-device.txt; date -u | tee -a $OUT/run2-device.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run2-smi.csv &
SMI=$!
for cfg in "8192 uniform" "4096 uniform" "8192 wide" "16384 uniform"; do
  echo "=== $cfg  (start $(date +%s.%N))"
  timeout 150 bin/int8_emulation_cublas $cfg
  echo "exit $? (end $(date +%s.%N))"
done 2>&1 | tee $OUT/run2-int8-emulation.md
kill $SMI
