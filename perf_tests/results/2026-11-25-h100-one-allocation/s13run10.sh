#!/usr/bin/env bash
# Session 13 run 10: page-locked host memory (cudaMallocHost; Kokkos' CudaHostPinnedSpace) taken by
# the stream API, as cuBLAS takes it (was refused as host memory). The new tests first, then every
# GPU test (the pointer checks run in every call).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemmMemoryKind*' > $OUT/memory-kind.log 2>&1
echo "memory-kind tests: exit $?"; grep -E "^\[  (PASSED|FAILED) \]|^\[       OK \]|Failure" -A3 $OUT/memory-kind.log | head -20
bin/egemm_kokkos_tests --gtest_color=no --gtest_filter='KokkosCuda.CudaHostPinned*:KokkosCuda.CudaUVM*' > $OUT/kokkos-pinned.log 2>&1
echo "Kokkos pinned/UVM tests: exit $?"; grep -E "^\[  (PASSED|FAILED) \]|^\[       OK \]|Failure" -A3 $OUT/kokkos-pinned.log | head -20
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
