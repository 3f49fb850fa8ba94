#!/usr/bin/env bash
# Session 17 run 2: the Int8Slices GPU tests again (NaN entries compared as
# NaN), then the GEMM suite for Int8Slices, EmulatedFP32, cuBLAS SGEMM and
# the four-call cuBLAS emulation on issue #5's shapes (run 1's filter had a
# trailing $ that matched nothing).
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
