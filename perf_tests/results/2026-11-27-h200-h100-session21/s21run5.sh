#!/usr/bin/env bash
# Session 21 run 5 (library 63d7445: the wider cross walk, the route's threshold at
# h >= 2^11 and h k >= 2^23, NormwiseFP32's fallback split walking its panels): every CUDA unit test;
# the suite as users get it at the shapes around the threshold and at 8192^3 on wide inputs (where
# NormwiseFP32's fallback runs); NormwiseFP32's call traced at 4096^3 and 8192^3; then the NormwiseFP32
# tests under memcheck and the special-values one (the fallback's split walking its panels) under racecheck.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 160 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A6 $OUT/cuda_tests.log | head -30
grep -E "^\[       OK \] (CudaNormwiseFP32|CudaDebugLog)" $OUT/cuda_tests.log
t1=$SECONDS
timeout 150 bin/egemm_bench_suite --benchmark_filter="(uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096|16384x16384x16384)/|wide/(egemm_NormwiseFP32|egemm_EmulatedFP32|cublas_sgemm)/8192x8192x8192/)" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t1)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
timeout 40 bin/egemm_call_timeline --shapes 4096x4096x4096,8192x8192x8192 --policies NormwiseFP32 --calls 3 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | head -40
left=$((560 - (SECONDS - t0)))
echo "sanitizers: ${left} s each"
(timeout $left compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.SpecialValues*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" >> $OUT/racecheck.log) &
(timeout $left compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log) &
wait
for t in racecheck memcheck; do grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|ERROR SUMMARY|RACECHECK SUMMARY|exit" $OUT/$t.log | head -8; done
echo "elapsed $((SECONDS - t0)) s"
