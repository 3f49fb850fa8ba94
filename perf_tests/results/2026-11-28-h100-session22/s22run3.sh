#!/usr/bin/env bash
# Session 22 run 3: A/B on one board of NormwiseFP32's column sums in the split (run 2's form, ~11
# instructions a row, against session 21's ~20, chosen per process by a temporary switch
# EGEMM_EXPERIMENT_OLD_SUMS in a build made for this run only), each kernel's own time at 8192^3,
# alternating; then the concurrent-streams test under memcheck with the uploads fixed (5 repeats),
# racecheck on NormwiseFP32's tests, and the split's users' GPU tests.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for round in 1 2 3; do
  for v in new old; do
    if [[ $v == old ]]; then export EGEMM_EXPERIMENT_OLD_SUMS=1; else unset EGEMM_EXPERIMENT_OLD_SUMS; fi
    EGEMM_DEPENDENT_LAUNCH=0 timeout 60 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32 --calls 9 > $OUT/timeline-$v-$round.txt 2>&1
    echo "round $round $v: $(grep -E '^\| [0-9]+ \| (lagged_split_kernel|int8_cross_kernel)' $OUT/timeline-$v-$round.txt | awk -F'|' '{printf "%s %s us; ", $3, $6}') $(grep -o 'GPU span[^;]*' $OUT/timeline-$v-$round.txt | head -1)"
  done
done
unset EGEMM_EXPERIMENT_OLD_SUMS
t0=$SECONDS
timeout 100 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaInt8Slices.ConcurrentCalls*' --gtest_repeat=5 > $OUT/sanitize-memcheck-concurrent.log 2>&1
echo "memcheck, concurrent streams x5: exit $? in $((SECONDS - t0)) s"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY' $OUT/sanitize-memcheck-concurrent.log | sort | uniq -c
filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.*:CudaGemm/Int8Slices.*:CudaGemm/NormwiseFP32.*:CudaSplit.*'
t0=$SECONDS; timeout 100 bin/egemm_cuda_tests --gtest_color=no --gtest_filter="$filter" > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests ($filter): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12; grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
t0=$SECONDS
timeout 150 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaDebugLog.Normwise*:CudaNormwiseFP32.FewEntries*:CudaNormwiseFP32.SpecialValues*' > $OUT/sanitize-racecheck.log 2>&1
echo "racecheck (NormwiseFP32): exit $? in $((SECONDS - t0)) s"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[==========\] [0-9]+ tests|RACECHECK SUMMARY|ERROR SUMMARY' $OUT/sanitize-racecheck.log | head
