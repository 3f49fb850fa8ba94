#!/usr/bin/env bash
# Session 15 run 7: an eleventh mutant, the mma.sync kernel's FP16-path fold (one RN add per
# k-step of 16) rounding toward zero (run 5's M4 hit the TF32 path's fold only). The CUDA tests
# with the widened accuracy test, fail-fast, the same filter as run 5.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
FILTER='-CudaLargeOperands.*:CudaOutOfMemory.*:CudaMultiDevice.*:CudaLargeLeadingDimension.*:CudaStreamSemantics*'
LD_LIBRARY_PATH=$PWD/m11 main/bin/egemm_cuda_tests --gtest_color=no --gtest_brief=1 --gtest_fail_fast --gtest_filter="$FILTER" > $OUT/m11.log 2>&1
echo "M11: exit $?"; grep -E "accuracy \]|Failure|Expected|FAILED|PASSED" $OUT/m11.log | head -30
