#!/usr/bin/env bash
# Session 13 run 1: the library with one scratch allocation per call (the stream-K partial sums
# carved from the call's workspace, sized by a measuring pass). Every GPU test (with the new
# out-of-memory test), the CUDA tests again with stream-K forced on every Hopper launch (the
# partial sums' carving everywhere), Kokkos on CUDA, demo, precision profile; a call's host
# time at 2048^3 (EmulatedFP32 on the tensor cores: the measuring pass's cost) against the
# library before the change (d145d6a, same binary of the tool, its libegemm swapped); the suite
# at 4096^3 and 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=200 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "with [0-9]+ MiB free" $OUT/checks/egemm_cuda_tests.log
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
t0=$SECONDS
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no > $OUT/stream-k-forced.log 2>&1
echo "CUDA tests with EGEMM_SM90_STREAM_K=1: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/stream-k-forced.log | tee $OUT/stream-k-forced-summary.txt
grep -E "Failure" -A6 $OUT/stream-k-forced.log | head -40
rm -f $OUT/stream-k-forced.log
for lib in lib lib-before; do
  for round in 1 2; do
    echo "## $lib, round $round" >> $OUT/call-overhead-2048.md
    LD_LIBRARY_PATH=$PWD/$lib EGEMM_SMALL_GEMM_FALLBACK=0 bin/egemm_call_overhead 2048 >> $OUT/call-overhead-2048.md 2>&1
  done
done
grep -E "^## |egemm_EmulatedFP32|cublas_sgemm" $OUT/call-overhead-2048.md
timeout 300 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 13 run 1)" > /dev/null 2>&1
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report
grep -E "^## M|^\| (egemm|cublas)" $OUT/suite-table.md
