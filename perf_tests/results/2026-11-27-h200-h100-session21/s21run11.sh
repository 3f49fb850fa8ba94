#!/usr/bin/env bash
# Session 21 run 11 (library 0df22ea, with the column sums two threads a column and the cross terms in the
# debug log): the NormwiseFP32, debug-log and split tests (the new bit-for-bit check of the
# route's sums among them), racecheck and memcheck on the ones that run the split; NormwiseFP32
# and Int8Slices traced at 8192^3; the suite at 8192^3 and 16384^3 in three regimes.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 100 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.*:CudaInt8Slices.*:CudaSplit.*' > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests (filter): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[       OK \] (CudaNormwiseFP32|CudaDebugLog)" $OUT/cuda_tests.log | head -20
grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
(timeout 150 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaDebugLog.NormwiseFP32s*:CudaNormwiseFP32.NarrowRows*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" >> $OUT/racecheck.log) &
(timeout 150 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaDebugLog.NormwiseFP32s*:CudaNormwiseFP32.*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log) &
wait
for t in racecheck memcheck; do grep -E "^\[  PASSED|^\[  FAILED|ERROR SUMMARY|RACECHECK SUMMARY|exit" $OUT/$t.log | head -6; done
timeout 60 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 5 > $OUT/timeline.txt 2>/dev/null
echo "timeline: exit $?"; grep -E "^###|^Medians|lagged_split|int8_cross" $OUT/timeline.txt | grep -v cublas | head -20
EGEMM_SUITE_REGIMES=1 timeout 150 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm)/(4096x4096x4096|8192x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
echo "elapsed $((SECONDS - t0)) s"
