#!/usr/bin/env bash
# Session 7 run 8: four host threads calling at once on streams of their own (fresh process, 3 repetitions)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
for i in 1 2 3; do
  timeout 120 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaStreamSemantics.Threads*' > $OUT/threads-$i.log 2>&1; echo "repetition $i: rc=$?" | tee -a $S
  grep -E "Failure|thread [0-9]|^\[  (PASSED|FAILED)" $OUT/threads-$i.log | head -10 | tee -a $S
done
