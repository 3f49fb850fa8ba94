#!/bin/bash
# Session 15, run 1: does an FP16 accumulator draw less power than an FP32 one?
# Raw wgmma from shared memory, then cuBLAS half GEMMs, each sustained, with
# the SM clock and board power sampled every 100 ms.
set -u
cd "$(dirname "$0")"
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u; } | tee $OUT/run1-device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_accumulator_energy.cu -o /tmp/wae || exit 1
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a accumulator_energy.cu -lcublas -o /tmp/ae || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run1-smi.csv &
SMI=$!
sleep 1
/tmp/wae 4 2 | tee $OUT/run1-wgmma.csv
/tmp/ae 8192 4 2 | tee $OUT/run1-cublas.csv
kill $SMI
