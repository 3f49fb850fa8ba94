#!/usr/bin/env bash
# Session 8 run 5 (7a4a8ce: the session's final library): run_device_checks.sh tests; the
# CUDA tests' gemm, accuracy and stream cases again with EGEMM_DEPENDENT_LAUNCH=0 (plain
# launches); the timeline mode of run_device_checks.sh at 2048^3.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
export LD_LIBRARY_PATH=$PWD/lib
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_cuda_tests --gtest_filter='CudaGemm*:CudaEmulatedFP32*:CudaAccuracy*:CudaStreamSemantics*:CudaFusedKernel*:CudaSpecialValues*' > $OUT/plain-launch-tests.log 2>&1
echo "EGEMM_DEPENDENT_LAUNCH=0 egemm_cuda_tests (subset): exit $?"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/plain-launch-tests.log
TIMELINE_SHAPES=2048x2048x2048 OUT=$OUT/timeline bash run_device_checks.sh timeline > /dev/null 2>&1
grep -v "^###" $OUT/timeline/summary.txt
cd $OUT && tar czf run5.tgz checks/summary.txt timeline/*.md plain-launch-tests.log && rm -rf checks timeline plain-launch-tests.log
