#!/usr/bin/env bash
# Session 13 run 5: EGEMM's memory pool kept for the process (run 4: a pool from cudaMemPoolCreate
# survives cudaDeviceReset with its memory), the rest of the per-device state per context. The reset
# tests (now also checking that resets leave no memory behind), the out-of-memory tests and the
# stream-semantics tests (the pool and the stream check), the Kokkos tests.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for i in 1 2; do
  bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/reset-tests-$i.log 2>&1
  echo "reset tests, run $i: exit $?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) \]|^\[==========\]|Failure|free device memory" -A3 $OUT/reset-tests-$i.log | head -20
done
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaOutOfMemory*:CudaStreamSemantics*:CudaGemmWorkspace*:CudaGemmMemoryKind*:CudaWorkspace*' > $OUT/cuda-subset.log 2>&1
echo "CUDA tests (memory, workspace, stream semantics): exit $?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) \]|^\[==========\]|Failure" -A3 $OUT/cuda-subset.log | head -20
bin/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos.log 2>&1
echo "Kokkos tests: exit $?"; grep -E "^\[  (PASSED|FAILED) \]" $OUT/kokkos.log
