#!/usr/bin/env bash
# Session 7 run 12: spread on one machine: 8192^3, (N,N,2N) and (4N,N,N) at N = 4096, EmulatedFP32 against SGEMM
# and the four-call emulation, three rounds in separate processes
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for round in 1 2 3; do
  echo "== round $round"
  timeout 120 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192|4096x4096x8192|16384x4096x4096)/' 2>&1 | grep -E "^uniform/" | awk '{print $1, $2, $7}'
done
nvidia-smi --query-gpu=temperature.gpu,power.draw,clocks.sm --format=csv,noheader
