#!/usr/bin/env bash
# Session 22 run 1 (the route kernel's row passes merged: the row rule and the largest mass in one
# pass over both operands, then the count): every CUDA unit test and the reset tests; the demo on
# Debian's Kokkos (its libraries staged: STAGE_SYSTEM_LIBS=1); one call of NormwiseFP32 and
# Int8Slices traced at 8192^3 (plain launches: each kernel's own time); the suite at 8192^3 in its
# three regimes for the FP32-accurate tags, Int8Slices, SGEMM and the four-call emulation.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS; timeout 200 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12; grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
timeout 60 bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/cuda_reset_tests.log 2>&1; echo "egemm_cuda_reset_tests: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_reset_tests.log
{ timeout 60 bin/egemm_demo 4096; echo "demo (Debian Kokkos) 4096: exit $?"; } > $OUT/demo_debian.log 2>&1; tail -1 $OUT/demo_debian.log
EGEMM_DEPENDENT_LAUNCH=0 timeout 100 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 7 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | head -30
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 240 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
