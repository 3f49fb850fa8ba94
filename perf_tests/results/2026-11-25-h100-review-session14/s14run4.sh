#!/usr/bin/env bash
# Session 14 run 4: the final library (9c9d47b). Every GPU test, the demo and the precision
# profile (run_device_checks.sh tests); the CUDA tests again with stream-K forced on every
# Hopper launch; the suite at 2048^3, 4096^3 and 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log
t0=$SECONDS
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no > $OUT/stream-k-forced.log 2>&1
echo "CUDA tests with EGEMM_SM90_STREAM_K=1: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/stream-k-forced.log | tee $OUT/stream-k-forced-summary.txt
grep -E "Failure" -A6 $OUT/stream-k-forced.log | head -30
rm -f $OUT/stream-k-forced.log
timeout 200 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(2048x2048x2048|4096x4096x4096|8192x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 14 run 4)" > /dev/null 2>&1
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report $OUT/suite.log
grep -E "^## M|^\| (egemm|cublas)" $OUT/suite-table.md
