#!/usr/bin/env bash
# Session 22 run 9: the cross kernel in 512-thread blocks, each thread two lanes (l and l + 16, the
# fold's first step), two blocks an SM: the grid at 8192^3 one wave (run 8's ncu: 1024-thread
# blocks, one an SM, two waves at half occupancy). Against 663b386's library (old/), one call at
# 8192^3 traced per process, alternating; then the new library's NormwiseFP32 and debug-log tests,
# memcheck and racecheck on the cross kernel's test.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for round in 1 2 3; do
  for v in new old; do
    LD_LIBRARY_PATH=$PWD/../$v:$PWD/lib EGEMM_DEPENDENT_LAUNCH=0 timeout 60 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x4096 --policies NormwiseFP32 --calls 9 > /tmp/timeline-$v-$round.txt 2>&1
    echo "round $round $v: $(grep -E '^###|^\| [0-9]+ \| (int8_cross_kernel)' /tmp/timeline-$v-$round.txt | grep -v cuBLAS | awk -F'|' '/###/ {printf "%s: ", substr($0, 5, 14)} /cross/ {printf "%s us; ", $6}')"
  done
done
export LD_LIBRARY_PATH=$PWD/../new:$PWD/lib
t0=$SECONDS; timeout 100 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.*:CudaGemm/NormwiseFP32.*' > /tmp/cuda_tests.log 2>&1
echo "egemm_cuda_tests (NormwiseFP32, debug log): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" /tmp/cuda_tests.log | head -12; grep -E "Failure" -A8 /tmp/cuda_tests.log | head -30
for tool in memcheck racecheck; do
  t0=$SECONDS; timeout 150 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
    --gtest_filter='CudaNormwiseFP32.TheCross*:CudaDebugLog.Normwise*' > /tmp/$tool.log 2>&1
  echo "$tool: exit $? in $((SECONDS - t0)) s"; grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY|RACECHECK SUMMARY' /tmp/$tool.log
done
tar -C /tmp -czf $OUT/logs.tar.gz timeline-new-1.txt timeline-new-2.txt timeline-new-3.txt timeline-old-1.txt timeline-old-2.txt timeline-old-3.txt cuda_tests.log memcheck.log racecheck.log
