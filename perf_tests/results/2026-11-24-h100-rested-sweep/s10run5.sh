#!/usr/bin/env bash
# Session 10 run 5: every GPU test, Kokkos on CUDA, demo and precision profile on this session's
# build (run_device_checks.sh tests; the library is session 9's, the perf tools are new); the power
# budget with the whole call and SGEMM also timed one call at a time on a rested GPU.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log | head -5
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
t0=$SECONDS
timeout 200 bin/egemm_power_budget --shapes 8192x8192x8192,4096x4096x4096 > $OUT/power.md 2> $OUT/power.log
echo "power budget rc=$? in $((SECONDS - t0)) s"
grep -E "^###|^One call|^The gemm|^Whole" $OUT/power.md
cd $OUT && tar czf run5.tgz checks power.md && ls
