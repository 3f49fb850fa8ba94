#!/usr/bin/env bash
# Session 9 run 11 (the session's final library: the model's refitted epilogue cost): every GPU test,
# Kokkos on CUDA, demo, precision profile (run_device_checks.sh tests).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "the model picks" $OUT/checks/egemm_cuda_tests.log | head -2
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
