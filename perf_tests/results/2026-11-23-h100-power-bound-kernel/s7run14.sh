#!/usr/bin/env bash
# Session 7 run 14 (nvidia-h200-x2): calls alternating between two GPUs; every GPU test on an H200;
# EmulatedFP32 against SGEMM and the four-call emulation at 4096^3 and 8192^3 on an H200
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=index,name,serial,power.limit --format=csv,noheader; date -u
timeout 200 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaMultiDevice*' > $OUT/multi.log 2>&1; echo "multi-device rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure|Skipped|needs" $OUT/multi.log | head -20
timeout 300 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1; echo "egemm_cuda_tests rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/cuda-tests.log | head -20
timeout 120 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation|cublas_half)/(4096x4096x4096|8192x8192x8192)/' 2>&1 | grep -E "^uniform/" | awk '{print $1, $2, $7}'
