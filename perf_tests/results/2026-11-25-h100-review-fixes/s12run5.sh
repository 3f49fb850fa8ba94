#!/usr/bin/env bash
# Session 12 run 5: the host API's pointer check no longer starts CUDA (it asks the runtime only
# where the CUDA driver is already loaded). host_call_context.cpp in a fresh process; every GPU
# test and every host test on the GPU machine; Kokkos on CUDA.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
exp/host_call_context
cd main
export LD_LIBRARY_PATH=$PWD/lib
for t in egemm_cuda_tests egemm_host_tests egemm_kokkos_tests; do
  t0=$SECONDS
  bin/$t --gtest_color=no > $OUT/$t.log 2>&1
  echo "$t: exit $? in $((SECONDS - t0)) s"
  grep -E "Failure" -A6 $OUT/$t.log | head -20
  grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/$t.log | tee $OUT/$t-summary.txt
  grep -E "^\[ *(OK|FAILED) *\] CudaGemmMemoryKind" $OUT/$t.log
  rm -f $OUT/$t.log
done
