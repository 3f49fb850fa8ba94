#!/usr/bin/env bash
# Session 17 run 1: Int8Slices on an H100 (library b2a301e): its GPU tests
# first (device bits against the host oracle on both kernels), the GEMM suite
# for Int8Slices, EmulatedFP32, cuBLAS SGEMM and the four-call cuBLAS
# emulation on the #5 shapes, then every GPU test.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $? in $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -40
t0=$SECONDS
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md 2>/dev/null; cat $OUT/suite_table.md
grep -iE "error|warn|fail" $OUT/suite.log | head
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "all cuda tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]" $OUT/cuda_tests.log | head -20
grep -E "Failure" -A6 $OUT/cuda_tests.log | head -40
grep -E "^\[  FAILED  \]|^\[  SKIPPED \]|^\[  PASSED  \]|^\[==========\]" $OUT/cuda_tests.log > $OUT/cuda_tests_summary.txt
rm -f $OUT/cuda_tests.log
