#!/usr/bin/env bash
# Session 7 run 20 (runs 18-19 with scalings capped at 2^+-25: in run 19 the inputs themselves overflowed FP32): random mixed inputs for EmulatedFP32's path choice (scaled rows and columns, wide rows,
# Inf/NaN), 18 cases per process (0, 1 and 3 wide rows in turn), 16 processes (fresh seeds)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for i in $(seq 1 16); do
  timeout 120 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaEmulatedFP32.RandomMixedInputs' > $OUT/mixed-$i.log 2>&1; echo "process $i: rc=$?"
  grep -E "^\[  (PASSED|FAILED) |Failure|seed|special C|error|paths taken" $OUT/mixed-$i.log | head -12
done
