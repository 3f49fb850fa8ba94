#!/usr/bin/env bash
# Session 18 run 12 (the review: PanelPlace built from a panel position serves
# the lagged split, one digits helper serves both splits): the Int8Slices,
# split, switch and launch tests, and the split kernel's time at 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*Int8*:CudaSplit*:CudaSwitches*:CudaLaunchFailure*' > $OUT/int8_tests.log 2>&1
echo "tests: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -12
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/int8_tests.log > $OUT/tests_summary.txt; rm -f $OUT/int8_tests.log
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies Int8Slices --calls 5 2>/dev/null | grep -E "split_kernel|^Medians" | head -2 | tee $OUT/timeline.txt
