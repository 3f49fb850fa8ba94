#!/usr/bin/env bash
# Session 17 run 13 (library of the last commit: the mma.sync kernels' sums
# zeroed by one helper): the GPU tests on the mma.sync kernels
# (EGEMM_SM90_KERNEL=0) and the Int8Slices tests on every kernel.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
EGEMM_SM90_KERNEL=0 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemm/*:CudaAccuracy*:CudaSpecial*' > $OUT/mma_sync.log 2>&1
echo "mma.sync kernels: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A2 $OUT/mma_sync.log | head -12
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaFusedKernel.SwitchForcesMmaSyncAndBothKernelsAgree' > $OUT/int8.log 2>&1
echo "Int8Slices and the kernel switch: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A2 $OUT/int8.log | head -12
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED|^\[==========\]" $OUT/mma_sync.log $OUT/int8.log > $OUT/summary.txt; rm -f $OUT/mma_sync.log $OUT/int8.log
