#!/usr/bin/env bash
# Session 22 run 10 (the session's last library): every CUDA unit test; memcheck on the tests that
# run the split's column sums with rows that do not count; the suite at 8192^3 (median only).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS; timeout 200 bin/egemm_cuda_tests --gtest_color=no > /tmp/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" /tmp/cuda_tests.log | head -12; grep -E "Failure" -A8 /tmp/cuda_tests.log | head -30
t0=$SECONDS; timeout 60 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaDebugLog.Normwise*:CudaNormwiseFP32.SpecialValues*:CudaNormwiseFP32.TheCross*' > /tmp/memcheck.log 2>&1
echo "memcheck: exit $? in $((SECONDS - t0)) s"; grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY' /tmp/memcheck.log
timeout 60 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/(8192x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1; echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && grep -E "^##|egemm|cublas" /tmp/rep/table.md
tar -C /tmp -czf $OUT/logs.tar.gz cuda_tests.log memcheck.log suite.log rep/table.md
