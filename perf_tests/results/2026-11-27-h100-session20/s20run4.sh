#!/usr/bin/env bash
# Session 20 run 4 (nvidia-h100-x1, library 7e9d5b9: NormwiseFP32's cross rule in place of the panel
# rule): every CUDA unit test; the suite for NormwiseFP32 against Int8Slices and SGEMM at 4096^3 and
# 8192^3 (what the column sums and the cross kernel cost); one call's kernels on the timeline; then
# the cross rule's GPU tests under memcheck and racecheck at once, in the time left.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 140 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A6 $OUT/cuda_tests.log | head -30
grep -E "^\[       OK \] CudaNormwiseFP32" $OUT/cuda_tests.log
t1=$SECONDS
timeout 70 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_NormwiseFP32|egemm_Int8Slices|cublas_sgemm)/(4096x4096x4096|8192x8192x8192)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t1)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && cat $OUT/suite_table.md
timeout 25 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 3 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^\|" $OUT/timeline.txt | head -30
left=$((245 - (SECONDS - t0)))
echo "sanitizers: ${left} s each"
(timeout $left compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.TheCrossRule*:CudaNormwiseFP32.NarrowRows*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log) &
(timeout $left compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.TheCrossRule*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" >> $OUT/racecheck.log) &
wait
for t in memcheck racecheck; do grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|ERROR SUMMARY|RACECHECK SUMMARY|exit" $OUT/$t.log | head -8; done
echo "elapsed $((SECONDS - t0)) s"
