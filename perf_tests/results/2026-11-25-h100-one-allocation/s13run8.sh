#!/usr/bin/env bash
# Session 13 run 8: the new reset test (a thread ending after a reset no call noticed) on this
# library, and alone on the library before the session (d145d6a, under the soname this test binary
# asks for): does destroying a destroyed context's cuBLAS handles at thread exit matter?
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
LD_LIBRARY_PATH=$PWD/lib bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/reset-tests.log 2>&1
echo "reset tests: exit $?"; grep -E "^\[  (PASSED|FAILED|  OK) |^\[       OK \]|Failure" $OUT/reset-tests.log
for i in 1 2 3; do
  LD_LIBRARY_PATH=$PWD/lib-before bin/egemm_cuda_reset_tests --gtest_color=no \
    --gtest_filter='CudaDeviceReset.AThreadEndingAfterAnUnnoticedResetLeavesItsHandles' > $OUT/before-$i.log 2>&1
  echo "the thread-exit test on d145d6a, try $i: exit $?"; grep -E "^\[  (PASSED|FAILED) \]|Failure|what" $OUT/before-$i.log | head -4
done
