#!/usr/bin/env bash
# Session 7 run 26 (commit 870bedb, the final library: the aliasing check in O(1) for one leading dimension):
# run_device_checks.sh tests (every GPU test, Kokkos, demo, profile)
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|needs two" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "DisjointBlocks" $OUT/checks/egemm_cuda_tests.log | head -5
rm -f $OUT/checks/precision_profile.md
