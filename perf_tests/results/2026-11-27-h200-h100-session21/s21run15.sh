#!/usr/bin/env bash
# Session 21 run 15 (run 14's library): racecheck on the route kernel's new counting.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
timeout 100 compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
   --gtest_filter='CudaNormwiseFP32.FewEntries*:CudaNormwiseFP32.TheCrossKernel*:CudaDebugLog.Normwise*' > $OUT/racecheck.log 2>&1; echo "racecheck: exit $?" | tee -a $OUT/racecheck.log
grep -E "^\[  PASSED|^\[  FAILED|RACECHECK SUMMARY" $OUT/racecheck.log | head -5
