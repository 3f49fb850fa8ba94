#!/usr/bin/env bash
# Session 21 run 12 (library d7d1a54: NormwiseFP32's entries rule; the column sums one thread a column
# again): every CUDA test; racecheck and memcheck on the route's new counting (the few-entries
# test) and the NormwiseFP32 tests; the suite at 4096^3 and 8192^3 for NormwiseFP32 beside Int8Slices.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 170 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
grep -E "^\[       OK \] (CudaNormwiseFP32|CudaDebugLog)" $OUT/cuda_tests.log
(timeout 120 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.FewEntries*:CudaNormwiseFP32.SpecialValues*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" >> $OUT/racecheck.log) &
(timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.Normwise*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log) &
wait
for t in racecheck memcheck; do grep -E "^\[  PASSED|^\[  FAILED|ERROR SUMMARY|RACECHECK SUMMARY|exit" $OUT/$t.log | head -6; done
timeout 60 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/(4096x4096x4096|8192x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
echo "elapsed $((SECONDS - t0)) s"
