#!/usr/bin/env bash
# Session 12 run 1: the review fixes. The loaded-code probes in three builds of one source
# (sm_90a, plain sm_90, compute_80 PTX only); every GPU test, Kokkos on CUDA, demo and profile
# on the library built for 80-real;90a-real... here 90a-real; the GPU tests again on a library
# built for plain sm_90 (the Hopper kernels compiled out: the mma.sync kernel must run, correctly);
# a call's host time at 1024^3.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
echo "== probes"
for f in sm90a sm90 ptx80; do exp/probe_$f; done
echo "== main library (90a-real)"
t0=$SECONDS
(cd main && OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1)
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" -A4 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "loaded code:|with [0-9]+ MiB free|EmulatedFP32 fp16_scaled runs on|could reach|cannot reach" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[ *(OK|FAILED|SKIPPED) *\] (CudaLoadedCode|CudaOutOfMemory|CudaLargeLeadingDimension|CudaMultiDevice|CudaLargeOperands)" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[ *(OK|FAILED) *\] KokkosGemm.ErrorsName|^\[ *(OK|FAILED) *\] KokkosGemm.BadArg" $OUT/checks/egemm_kokkos_tests.log
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
echo "== library built for plain sm_90 (no sm_90a code)"
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/sm90/lib sm90/bin/egemm_cuda_tests --gtest_color=no > $OUT/sm90-build-tests.log 2>&1
echo "exit $? in $((SECONDS - t0)) s"
grep -E "loaded code:|EmulatedFP32 fp16_scaled runs on" $OUT/sm90-build-tests.log
grep -E "FAILED|Failure" -A4 $OUT/sm90-build-tests.log | head -30
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/sm90-build-tests.log | tee $OUT/sm90-build-tests-summary.txt
rm -f $OUT/sm90-build-tests.log
echo "== call overhead 1024"
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_call_overhead 1024 | tee $OUT/call-overhead.md
