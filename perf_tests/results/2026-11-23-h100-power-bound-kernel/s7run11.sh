#!/usr/bin/env bash
# Session 7 run 11: is the hand-off's gap in the suite an ordering effect? 1024^3, uniform, methods in pairs
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for round in 1 2; do
  for F in '(egemm_NativeFP32|cublas_sgemm)' '(egemm_EmulatedFP32|cublas_sgemm)' '(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)' '(egemm_Half|egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)'; do
    echo "== round $round: $F"
    timeout 60 bin/egemm_bench_suite --benchmark_filter="uniform/$F/1024x1024x1024/" 2>&1 | grep -E "^uniform/" | awk '{print $1, $2}'
  done
done
timeout 30 bin/egemm_call_overhead 1024 2>&1
