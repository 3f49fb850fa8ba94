#!/usr/bin/env bash
# Session 14 run 10: the final library (6c8779d: EGEMM_LOG=debug reads back the device's path
# choice). Every GPU test, the demo and the precision profile (run_device_checks.sh tests); the
# CUDA tests again with stream-K forced on every Hopper launch.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[  +(OK|FAILED|SKIPPED) " $OUT/checks/egemm_cuda_tests.log | grep -E "DebugLog" | tee $OUT/checks/debug-log-test.txt
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/precision_profile.md
t0=$SECONDS
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no > $OUT/stream-k-forced.log 2>&1
echo "CUDA tests with EGEMM_SM90_STREAM_K=1: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/stream-k-forced.log | tee $OUT/stream-k-forced-summary.txt
grep -E "Failure" -A6 $OUT/stream-k-forced.log | head -30
rm -f $OUT/stream-k-forced.log
