#!/usr/bin/env bash
# Session 14 run 2: cuBLAS/cuBLASLt handles no longer destroyed at thread exit (an ending
# thread's handles wait, idle, for the next thread). Which runtime calls clear an error left in
# the last-error slot (stale_error_probe.cu); every GPU test; the demo at 4096^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
echo "## stale_error_probe"; bin/stale_error_probe | tee $OUT/stale-error-probe.txt
for t in egemm_cuda_tests egemm_cuda_reset_tests egemm_kokkos_tests; do
  t0=$SECONDS
  bin/$t --gtest_color=no > $OUT/$t.log 2>&1
  echo "$t: exit $? in $((SECONDS - t0)) s"
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/$t.log | tee $OUT/$t-summary.txt
  grep -E "Failure" -A8 $OUT/$t.log | head -40
done
grep -E "^\[  +(OK|FAILED|SKIPPED) " $OUT/egemm_cuda_tests.log | grep -E "UnreadError|CudaSwitches|AThreadEnding|ThreadsCalling|CapturedGraph" | tee $OUT/new-tests.txt
rm -f $OUT/*.log
bin/egemm_demo 4096 > $OUT/demo-4096.txt 2>&1; echo "demo: exit $?"; tail -6 $OUT/demo-4096.txt
