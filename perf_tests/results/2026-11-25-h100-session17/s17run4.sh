#!/usr/bin/env bash
# Session 17 run 4: Int8Slices with C staged in shared memory and stored by
# TMA (as the FP16 policies do): its GPU tests, the GEMM suite on issue #5's
# shapes, and where a call's time goes (each kernel's own time, plain launches).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $? in $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -20
t0=$SECONDS
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096|32768x8192x8192)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > $OUT/report.log 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md 2>/dev/null; cat $OUT/suite_table.md
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies Int8Slices,EmulatedFP32 --calls 5 > $OUT/timeline.md 2> $OUT/timeline.log
echo "timeline: exit $?"; cat $OUT/timeline.md | head -60; tail -3 $OUT/timeline.log
