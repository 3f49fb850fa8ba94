#!/usr/bin/env bash
# Session 7 run 21: repeated calls take no more device memory (CudaGemmWorkspace.*), three processes
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for i in 1 2 3; do
  timeout 200 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemmWorkspace.*' > $OUT/workspace-$i.log 2>&1; echo "process $i: rc=$?"
  grep -E "^\[  (PASSED|FAILED) |Failure|taken|Which is|free" $OUT/workspace-$i.log | head -8
done
