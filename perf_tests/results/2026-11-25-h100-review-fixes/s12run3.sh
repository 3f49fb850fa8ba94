#!/usr/bin/env bash
# Session 12 run 3: the final library of the review (stream check cached per thread; Kokkos null
# Views by extents; the ld test with the hand-off on). Every GPU test, Kokkos on CUDA, demo and
# profile; the probes; call_overhead at 1024^3 twice; the suite at 1024^3 and 2048^3 in both
# regimes for EmulatedFP32 (the hand-off at 1024^3), NativeFP32 and cuBLAS SGEMM.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for f in sm90a sm90 ptx80; do exp/probe_$f; done
cd main
export LD_LIBRARY_PATH=$PWD/lib
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "Failure" -A6 $OUT/checks/egemm_kokkos_tests.log | head -20
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "loaded code:|with [0-9]+ MiB free|EmulatedFP32 fp16_scaled runs on" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[ *(OK|FAILED|SKIPPED) *\] (CudaLoadedCode|CudaOutOfMemory|CudaLargeLeadingDimension|CudaMultiDevice|CudaLargeOperands|CudaStreamSemantics)" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[ *(OK|FAILED) *\] KokkosGemm" $OUT/checks/egemm_kokkos_tests.log
gzip -f $OUT/checks/egemm_cuda_tests.log; rm -f $OUT/checks/egemm_kokkos_tests.log
for i in 1 2; do bin/egemm_call_overhead 1024 | tee -a $OUT/call-overhead.md; done
EGEMM_SUITE_REGIMES=1 timeout 300 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)/(1024x1024x1024|2048x2048x2048)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 12 run 3)" > /dev/null 2>&1
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report
cat $OUT/suite-table.md | head -40
