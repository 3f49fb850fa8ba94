#!/usr/bin/env bash
# Session 21 run 1 (library 1694422: the cross kernel's walk spread over 32 lanes a depth index):
# every CUDA unit test; the suite for NormwiseFP32 against EmulatedFP32, Int8Slices and SGEMM at the
# shapes around the route's threshold, as users get it and with the route forced
# (EGEMM_SMALL_GEMM_FALLBACK=0); one call's kernels on the timeline at 8192^3 and 4096^3 (forced);
# then the cross rule's GPU tests under racecheck and memcheck in the time left.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 150 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A6 $OUT/cuda_tests.log | head -30
grep -E "^\[       OK \] CudaNormwiseFP32" $OUT/cuda_tests.log
shapes='2048x2048x2048|4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096'
t1=$SECONDS
timeout 150 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm)/($shapes)\$" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t1)) s"
t1=$SECONDS
EGEMM_SMALL_GEMM_FALLBACK=0 timeout 80 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|4096x4096x8192|16384x4096x4096)\$" \
  --benchmark_out=$OUT/suite_forced.json --benchmark_out_format=json > $OUT/suite_forced.log 2>&1
echo "suite (route forced): exit $? in $((SECONDS - t1)) s"
for s in suite suite_forced; do
  python3 report.py $OUT/$s.json --out /tmp/rep_$s --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep_$s/table.md $OUT/${s}_table.md && grep -E "^##|egemm|cublas" $OUT/${s}_table.md
done
EGEMM_SMALL_GEMM_FALLBACK=0 timeout 40 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x4096 --policies NormwiseFP32 --calls 3 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^\|.*(kernel|memset)|^#" $OUT/timeline.txt | head -40
left=$((470 - (SECONDS - t0)))
echo "sanitizers: ${left} s each"
(timeout $left compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.TheCross*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" >> $OUT/racecheck.log) &
(timeout $left compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.TheCross*:CudaNormwiseFP32.NarrowRows*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log) &
wait
for t in racecheck memcheck; do grep -E "^\[  PASSED|^\[  FAILED|^\[       OK|ERROR SUMMARY|RACECHECK SUMMARY|exit" $OUT/$t.log | head -8; done
echo "elapsed $((SECONDS - t0)) s"
