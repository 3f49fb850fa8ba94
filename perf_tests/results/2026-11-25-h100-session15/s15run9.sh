#!/usr/bin/env bash
# Session 15 run 9: the new CudaFusedKernel.StreamKStretchesOfOddLengthFoldTheirLastTf32KTile
# against run 8's surviving mutant R4 (it must fail there), then the final library's whole GPU
# check (run_device_checks.sh tests: every CUDA test, the reset tests, the Kokkos tests on CUDA,
# the demo, the precision profile).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in r4 main/lib; do
  LD_LIBRARY_PATH=$PWD/$lib main/bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaFusedKernel.StreamKStretches*' > $OUT/odd-stretch-$(basename $lib).log 2>&1
  echo "odd-stretch test with $lib: exit $?"
  grep -E "Failure|SLOTS|error|FAILED|PASSED|OK" $OUT/odd-stretch-$(basename $lib).log | head -8
done
t0=$SECONDS
cd main && OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "StreamKStretches" $OUT/checks/egemm_cuda_tests.log | head -3
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log
