#!/usr/bin/env bash
# Session 17 run 16 (the review's commit: shared helpers for the cluster
# attribute and the Inf/NaN row flag): the tests of every split and launch it touches.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/*:CudaSpecial*:CudaSplit*:CudaFusedKernel.*:CudaLaunchFailure/*' > $OUT/t.log 2>&1
echo "tests: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A2 $OUT/t.log | head -12
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED|^\[==========\]" $OUT/t.log > $OUT/summary.txt; rm -f $OUT/t.log
