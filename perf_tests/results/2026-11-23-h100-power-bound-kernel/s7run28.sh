#!/usr/bin/env bash
# Session 7 run 28 (the tests' shared run_on_host and gemm_on_device, on the library of 870bedb):
# run_device_checks.sh tests (every GPU test, Kokkos, demo, profile)
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|needs two" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "DisjointBlocks" $OUT/checks/egemm_cuda_tests.log | head -5
rm -f $OUT/checks/precision_profile.md
