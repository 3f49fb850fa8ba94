#!/usr/bin/env bash
# Session 22 run 7: NormwiseFP32's column sums with the row panels' weights written once (z_p at
# (row panel, p) only where some row does not count: 9 bytes a (row panel, p) where 17 were written
# and reread) against the session's previous library (old/: 2d6b0b9's, from build-kcuda, the same
# library code), one call at 8192^3 traced per process, alternating; then the new library's
# NormwiseFP32 tests, memcheck on the cross rule's, and the suite at 8192^3.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for round in 1 2 3; do
  for v in new old; do
    LD_LIBRARY_PATH=$PWD/../$v:$PWD/lib EGEMM_DEPENDENT_LAUNCH=0 timeout 60 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32 --calls 9 > /tmp/timeline-$v-$round.txt 2>&1
    echo "round $round $v: $(grep -E '^\| [0-9]+ \| (lagged_split_kernel|int8_cross_kernel|int8_route_kernel)' /tmp/timeline-$v-$round.txt | awk -F'|' '{printf "%s %s us; ", $3, $6}') span $(grep -o 'GPU span (first start to last end) [0-9.]* us' /tmp/timeline-$v-$round.txt | grep -o '[0-9.]* us')"
  done
done
export LD_LIBRARY_PATH=$PWD/../new:$PWD/lib
t0=$SECONDS; timeout 100 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.*:CudaGemm/NormwiseFP32.*:CudaInt8Slices.*' > /tmp/cuda_tests.log 2>&1
echo "egemm_cuda_tests (NormwiseFP32, debug log, Int8Slices): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" /tmp/cuda_tests.log | head -12; grep -E "Failure" -A8 /tmp/cuda_tests.log | head -30
t0=$SECONDS; timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaNormwiseFP32.TheCross*:CudaNormwiseFP32.SpecialValues*:CudaDebugLog.Normwise*' > /tmp/memcheck.log 2>&1
echo "memcheck: exit $? in $((SECONDS - t0)) s"; grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY' /tmp/memcheck.log
t0=$SECONDS
timeout 120 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_Int8Slices|cublas_sgemm)/(8192x8192x8192)/" \
  --benchmark_out=/tmp/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py /tmp/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && grep -E "^##|egemm|cublas" /tmp/rep/table.md
cp /tmp/suite.json $OUT/; tar -C /tmp -czf $OUT/logs.tar.gz timeline-new-1.txt timeline-new-2.txt timeline-new-3.txt timeline-old-1.txt timeline-old-2.txt timeline-old-3.txt cuda_tests.log memcheck.log suite.log rep/table.md
