#!/usr/bin/env bash
# Session 13 run 2: per-device state rebuilt after cudaDeviceReset (backends/cuda/device_epoch.hpp).
# The reset tests on this library and, for the record, on the library before the change (d145d6a,
# libegemm swapped under the same test binary); every GPU test (the per-device caches changed
# under every kernel); a call's host time at 2048^3 (the context check at each call) against d145d6a.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in lib-before lib; do
  t0=$SECONDS
  LD_LIBRARY_PATH=$PWD/$lib timeout 180 bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/reset-tests-$lib.log 2>&1
  echo "reset tests on $lib: exit $? in $((SECONDS - t0)) s"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) \]|^\[==========\]|Failure|error|what\(\)|terminate" $OUT/reset-tests-$lib.log | head -20
done
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
for round in 1 2; do
  for lib in lib lib-before; do
    echo "## $lib, round $round" >> $OUT/call-overhead-2048.md
    LD_LIBRARY_PATH=$PWD/$lib EGEMM_SMALL_GEMM_FALLBACK=0 bin/egemm_call_overhead 2048 >> $OUT/call-overhead-2048.md 2>&1
    echo "## $lib, round $round, 1024 (hand-off)" >> $OUT/call-overhead-1024.md
    LD_LIBRARY_PATH=$PWD/$lib bin/egemm_call_overhead 1024 >> $OUT/call-overhead-1024.md 2>&1
  done
done
grep -E "^## |egemm_EmulatedFP32|cublas_sgemm" $OUT/call-overhead-2048.md $OUT/call-overhead-1024.md
