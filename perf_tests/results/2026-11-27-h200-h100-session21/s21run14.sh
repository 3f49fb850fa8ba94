#!/usr/bin/env bash
# Session 21 run 14 (the route kernel's row loops unrolled and its count a shared atomic a warp: run 13
# traced it at 95 us, ~90 after the cross kernel, where it had taken ~4): the
# NormwiseFP32 and debug-log tests, memcheck on them; one call traced at 8192^3 (what the route
# kernel's two new passes cost); the suite at 8192^3 again.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 60 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.*:CudaSpecialValues*' > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests (filter): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A8 $OUT/cuda_tests.log | head -20
timeout 90 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.Normwise*' > $OUT/memcheck.log 2>&1; echo "memcheck: exit $?" >> $OUT/memcheck.log
grep -E "^\[  PASSED|^\[  FAILED|ERROR SUMMARY|exit" $OUT/memcheck.log | head -5
timeout 40 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32 --calls 5 > $OUT/timeline.txt 2>/dev/null
echo "timeline: exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | head -10
timeout 60 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/8192x8192x8192/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "egemm|cublas" $OUT/suite_table.md
echo "elapsed $((SECONDS - t0)) s"
