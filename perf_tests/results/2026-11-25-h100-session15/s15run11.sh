#!/usr/bin/env bash
# Session 15 run 11: EGEMM_FAULT_LAUNCH and CudaLaunchFailure (every policy: a failed launch
# throws device_error, C untouched when it is the first, the next call right) on the library
# with the switch and on W6b (that library ignoring the launch's status; W6 survived run 10);
# then the unread-error, switch and stream tests on the new library, which touched every launch.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in w6b main/lib; do
  LD_LIBRARY_PATH=$PWD/$lib main/bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaLaunchFailure*' > $OUT/launch-failure-$(basename $lib).log 2>&1
  echo "CudaLaunchFailure with $lib: exit $?"
  grep -E "launches in this call|Failure|FAILED|PASSED|OK \]" $OUT/launch-failure-$(basename $lib).log | head -20
done
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log | tee $OUT/cuda-tests-summary.txt
grep -E "Failure" -A8 $OUT/cuda-tests.log | head -30
rm -f $OUT/cuda-tests.log
