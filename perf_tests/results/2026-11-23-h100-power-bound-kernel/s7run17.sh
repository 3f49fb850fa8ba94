#!/usr/bin/env bash
# Session 7 run 17: random cases on the device (extents 0..300, transposes, paddings, alpha/beta), every policy,
# five processes (fresh seeds), the kernels at every size (the binary turns the SGEMM hand-off off)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for i in 1 2 3 4 5; do
  timeout 120 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemm/*.RandomCases' > $OUT/random-$i.log 2>&1; echo "round $i: rc=$?"
  grep -E "^\[  (PASSED|FAILED) |Failure|seed" $OUT/random-$i.log | head -8
done
