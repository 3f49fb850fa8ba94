#!/usr/bin/env bash
# Session 14 run 11: the final library (one describe_path_choice for both EGEMM_LOG lines): every
# CUDA test once more.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log | tee $OUT/cuda-tests-summary.txt
grep -E "Failure" -A8 $OUT/cuda-tests.log | head -30
grep -E "^\[  +(OK|FAILED) " $OUT/cuda-tests.log | grep DebugLog | tee $OUT/debug-log-test.txt
rm -f $OUT/cuda-tests.log
