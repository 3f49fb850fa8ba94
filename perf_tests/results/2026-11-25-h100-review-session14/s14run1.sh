#!/usr/bin/env bash
# Session 14 run 1: the review fixes. Every GPU test (new: CudaUnreadError, CudaSwitches, the
# thread ending during another thread's capture, the Kokkos contract test), the demo, the
# precision profile; the two experiments (capture_thread_exit.cu: cublasDestroy under the
# global and the relaxed capture mode; unread_error.cu on the library before the fixes, 832af24,
# and after); a hand-off's host time at 1024^3 before and after (the switches now read once per
# call); the suite at 4096^3 and 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
tar xJf lib-before.tar.xz
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
echo "## capture_thread_exit"; bin/capture_thread_exit
for lib in lib-before lib; do
  echo "## unread_error, $lib"; LD_LIBRARY_PATH=$PWD/$lib bin/unread_error; echo "exit $?"
done
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -60
grep -E "Failure" -A8 $OUT/checks/egemm_kokkos_tests.log | head -30
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "^\[ RUN|^\[  +(OK|FAILED|SKIPPED) " $OUT/checks/egemm_cuda_tests.log | grep -E "UnreadError|CudaSwitches|AThreadEnding" > $OUT/checks/new-tests.txt
cat $OUT/checks/new-tests.txt | grep -v RUN
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
for round in 1 2; do
  for lib in lib-before lib; do
    echo "## $lib, round $round" >> $OUT/call-overhead-1024.md
    LD_LIBRARY_PATH=$PWD/$lib bin/egemm_call_overhead 1024 >> $OUT/call-overhead-1024.md 2>&1
  done
done
grep -E "^## |egemm_EmulatedFP32|cublas_sgemm" $OUT/call-overhead-1024.md
timeout 240 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 14 run 1)" > /dev/null 2>&1
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report
grep -E "^## M|^\| (egemm|cublas)" $OUT/suite-table.md
