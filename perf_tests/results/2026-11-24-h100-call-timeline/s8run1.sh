#!/usr/bin/env bash
# Session 8 run 1 (the session's first library: HEAD + EGEMM_DEPENDENT_LAUNCH + egemm_call_timeline):
# every GPU test; one call's kernels on the GPU's timeline at four shapes, with and without
# dependent launches; the suite at 4096^3 and 8192^3 (uniform) for today's baseline.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
rm -f $OUT/checks/precision_profile.md $OUT/checks/egemm_cuda_tests.log
TIMELINE_SHAPES=2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x4096x4096 OUT=$OUT/timeline \
  bash run_device_checks.sh timeline > /dev/null 2>&1
cat $OUT/timeline/summary.txt
t0=$SECONDS
SUITE_FILTER='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192)' \
  timeout 200 bin/egemm_bench_suite --benchmark_filter="$SUITE_FILTER" > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"; grep -E "uniform/" $OUT/suite.log | head -20
