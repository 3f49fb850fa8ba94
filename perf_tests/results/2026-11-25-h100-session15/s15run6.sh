#!/usr/bin/env bash
# Session 15 run 6: CudaAccuracy.EmulatedFP32NoWorseThanCublasSgemm now runs on every fused
# kernel the GPU can run (on Hopper also the mma.sync and cp.async wgmma kernels). It must fail on
# run 5's surviving mutant (the mma.sync kernel's fold rounding toward zero) and pass on the clean
# library; then every CUDA test on the clean library (one file per outcome: few files come back).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in m4 main/lib; do
  LD_LIBRARY_PATH=$PWD/$lib main/bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaAccuracy.*' > $OUT/accuracy-$(basename $(dirname $lib/x))-$(basename $lib).log 2>&1
  echo "CudaAccuracy.* with $lib: exit $?"
done
grep -h "accuracy \]\|Failure\|Expected\|Which is\|FAILED\|PASSED" $OUT/accuracy-*.log | head -60
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log | tee $OUT/cuda-tests-summary.txt
grep -E "Failure" -A8 $OUT/cuda-tests.log | head -30
rm -f $OUT/cuda-tests.log
