#!/usr/bin/env bash
# Session 11 run 13: every GPU test after the review (one ThreadHandles for the cuBLAS and cuBLASLt handles);
# call_overhead at 1024^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" -A3 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "CudaSgemmPlans|bit-equal" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/sgemm-plans-tests.txt
cat $OUT/checks/sgemm-plans-tests.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
bin/egemm_call_overhead 1024 | tee $OUT/call-overhead.md
