#!/usr/bin/env bash
# Session 7 run 6: the stream tests after making one-time set-up capture-safe (RelaxedCaptureScope):
# all in one process, then each capture test alone in a fresh process (its call is the process's first)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 300 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaStreamSemantics*' > $OUT/stream-tests.log 2>&1; echo "one process: rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure|could not|waited" $OUT/stream-tests.log | head -40 | tee -a $S
for t in EmulatedFP32 RoundSplit4 TruncateSplit4 Half NativeFP32 FullRangeTF32x3; do
  timeout 60 bin/egemm_cuda_tests --gtest_color=no --gtest_filter="CudaStreamSemantics/$t.ACapturedGraphReplaysOnFreshOperands" > $OUT/capture-$t.log 2>&1
  echo "fresh process, $t capture: rc=$?" | tee -a $S; grep -E "Failure|could not|error" $OUT/capture-$t.log | head -5 | tee -a $S
done
timeout 60 bin/egemm_cuda_tests --gtest_color=no --gtest_filter="CudaStreamSemantics.TheSgemmHandOffKeepsBothPromises" > $OUT/handoff.log 2>&1
echo "fresh process, hand-off: rc=$?" | tee -a $S; grep -E "Failure|could not|error" $OUT/handoff.log | head -5 | tee -a $S
