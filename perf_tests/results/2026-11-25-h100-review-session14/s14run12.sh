#!/usr/bin/env bash
# Session 14 run 12: after the closing review's tidy-up (the debug report's copies through one
# helper, the Kokkos gemm's unnamed tag): every CUDA test and the Kokkos tests on CUDA.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for t in egemm_cuda_tests egemm_kokkos_tests; do
  bin/$t --gtest_color=no > $OUT/$t.log 2>&1; echo "$t: exit $?"
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/$t.log | tee $OUT/$t-summary.txt
  grep -E "Failure" -A8 $OUT/$t.log | head -20
  rm -f $OUT/$t.log
done
