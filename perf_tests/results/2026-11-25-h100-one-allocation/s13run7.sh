#!/usr/bin/env bash
# Session 13 run 7: the final library after the review of the change (handles from a context a
# reset destroyed are not destroyed at thread exit, even when no call noticed the reset; the
# context check after the operand checks; soname 0.1): every GPU test, the reset tests with
# EGEMM_LOG=debug (the epoch changes logged), and a program that resets the device at its end
# with EGEMM's handles alive (the reset tests' binary does: its last test's worker thread and main).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
EGEMM_LOG=debug bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/reset-tests-debug.log 2>&1
echo "reset tests with EGEMM_LOG=debug: exit $?"
grep -E "replaces|^\[  (PASSED|FAILED) \]" $OUT/reset-tests-debug.log | head
# A reset as a program's last act, EGEMM's cuBLAS handles alive in main: exit must be clean.
bin/egemm_cuda_reset_tests --gtest_color=no --gtest_filter='CudaDeviceReset.CallsRunAgainAfterEachReset' > $OUT/reset-last.log 2>&1
echo "reset tests (one test): exit $?"
