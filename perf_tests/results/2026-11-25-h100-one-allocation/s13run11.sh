#!/usr/bin/env bash
# Session 13 run 11: EmulatedFP32's two paths share their stream-K scratch (only the chosen one
# works, in stream order). The out-of-memory tests (the one allocation's size), every GPU test, and
# the CUDA tests again with stream-K forced on every Hopper launch (the TF32 path, chosen on wide
# inputs, then writes where the FP16 path's partial sums were carved).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaOutOfMemory*' > $OUT/oom.log 2>&1
echo "out-of-memory tests: exit $?"; grep -E "with [0-9]+ MiB free|^\[  (PASSED|FAILED) \]" $OUT/oom.log
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
t0=$SECONDS
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no > $OUT/stream-k-forced.log 2>&1
echo "CUDA tests with EGEMM_SM90_STREAM_K=1: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/stream-k-forced.log | tee $OUT/stream-k-forced-summary.txt
grep -E "Failure" -A6 $OUT/stream-k-forced.log | head -40
rm -f $OUT/stream-k-forced.log
