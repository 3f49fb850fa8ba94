#!/usr/bin/env bash
# Session 12 run 2: after run 1's failures (the stream check ended captures: cudaStreamGetDevice
# on a capturing stream; now skipped for default and capturing streams). The failing tests first,
# with their whole output; then every GPU test (90a-real library), Kokkos on CUDA, demo, profile;
# the GPU tests again on the plain-sm_90 library; the probes.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
echo "== probes"
for f in sm90a sm90 ptx80; do exp/probe_$f; done
echo "== run 1's failures, in full"
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaLargeLeadingDimension.*:CudaStreamSemantics.TheSgemm*:CudaStreamSemantics/EmulatedFP32.*:CudaStreamSemantics/NativeFP32.*' 2>&1 | grep -v "^\[ *RUN\|^\[----------\]" | tail -40
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_kokkos_tests --gtest_color=no --gtest_filter='KokkosGemm.ErrorsName*' 2>&1 | tail -25
echo "== main library (90a-real)"
t0=$SECONDS
(cd main && OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1)
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "loaded code:|with [0-9]+ MiB free|EmulatedFP32 fp16_scaled runs on|could reach|cannot reach" $OUT/checks/egemm_cuda_tests.log
grep -E "^\[ *(OK|FAILED|SKIPPED) *\] (CudaLoadedCode|CudaOutOfMemory|CudaLargeLeadingDimension|CudaMultiDevice|CudaLargeOperands)" $OUT/checks/egemm_cuda_tests.log
gzip -c $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests.log.gz; rm -f $OUT/checks/egemm_cuda_tests.log
echo "== library built for plain sm_90 (no sm_90a code)"
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/sm90/lib sm90/bin/egemm_cuda_tests --gtest_color=no > $OUT/sm90-build-tests.log 2>&1
echo "exit $? in $((SECONDS - t0)) s"
grep -E "loaded code:|EmulatedFP32 fp16_scaled runs on" $OUT/sm90-build-tests.log
grep -E "Failure" -A6 $OUT/sm90-build-tests.log | head -30
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/sm90-build-tests.log | tee $OUT/sm90-build-tests-summary.txt
rm -f $OUT/sm90-build-tests.log
