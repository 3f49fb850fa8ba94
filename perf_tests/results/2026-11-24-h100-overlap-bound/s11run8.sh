#!/usr/bin/env bash
# Session 11 run 8: the planned SGEMM (cuBLASLt, a plan cached per shape; library of this commit):
# every GPU test; call_overhead at 1024^3 twice; the rested hand-off's host pieces, interleaved
# (host_rested.cu, now with the hand-off without plans as a variant); the suite at 1024^3 and 2048^3
# in both regimes for EmulatedFP32, NativeFP32 and cuBLAS SGEMM.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "bit-equal" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "CudaSgemmPlans|bit-equal" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/sgemm-plans-tests.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
for i in 1 2; do bin/egemm_call_overhead 1024 | tee -a $OUT/call-overhead.md; done
for i in 1 2; do ../exp/host_rested 25 | tee -a $OUT/host-rested.md; done
EGEMM_SUITE_REGIMES=1 timeout 300 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)/(1024x1024x1024|2048x2048x2048)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-24 (session 11 run 8)" > /dev/null 2>&1
cat $OUT/report/table.md | head -60
