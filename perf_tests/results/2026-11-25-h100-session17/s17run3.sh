#!/usr/bin/env bash
# Session 17 run 3: Int8Slices with 64-byte k-tile rows (a ring of four 48 KiB
# stages instead of two of 96 KiB): its GPU tests, then the GEMM suite for Int8Slices, EmulatedFP32, cuBLAS SGEMM and
# the four-call cuBLAS emulation on issue #5 shapes; Int8Slices in single
# blocks (EGEMM_SM90_CLUSTER=1) at 8192^3 too.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $? in $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED|     OK) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -40
t0=$SECONDS
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > $OUT/report.log 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md 2>/dev/null; cat $OUT/suite_table.md
grep -iE "error|warn|fail" $OUT/suite.log | head
EGEMM_SM90_CLUSTER=1 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm)/8192x8192x8192' > $OUT/suite_single_blocks.log 2>&1
grep -E "Int8|sgemm" $OUT/suite_single_blocks.log | head
