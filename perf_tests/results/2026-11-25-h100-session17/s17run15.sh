#!/usr/bin/env bash
# Session 17 run 15 (the last library commit: the placeable clusters found once
# per device, the cluster split gated on sm_90 code): the Int8Slices, kernel and
# reset tests; which split a call at 8192^3 and 16384^3 takes; the suite at 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:CudaFusedKernel.*:CudaLaunchFailure/*:CudaUnreadError*' > $OUT/t.log 2>&1
echo "tests: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A2 $OUT/t.log | head -12
bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/r.log 2>&1; echo "reset tests: exit $?"; grep -E "^\[  (PASSED|FAILED) " $OUT/r.log
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,16384x16384x16384 --policies Int8Slices --calls 3 2>/dev/null | grep -E "split|maxima|digits|tma_wgmma|^Medians" | grep -v sm80_xmma | head -12
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/8192x8192x8192' 2>/dev/null | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+" | paste - -
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED|^\[==========\]" $OUT/t.log $OUT/r.log > $OUT/summary.txt; rm -f $OUT/t.log $OUT/r.log
