#!/usr/bin/env bash
# Session 11 run 5: every GPU test on 6ea6f6b's library (the hand-off asks for the kernel once);
# the hand-off's host pieces again (host_breakdown.cu, new signatures); call_overhead at 1024^3, twice.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
../exp/host_breakdown | tee $OUT/host-breakdown.md
for i in 1 2; do bin/egemm_call_overhead 1024 | tee -a $OUT/call-overhead.md; done
