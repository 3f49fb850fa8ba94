#!/usr/bin/env bash
# Session 7 run 15 (HEAD: the library of dad886f, every test of the session): run_device_checks.sh tests
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|SKIPPED|needs two" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "RepeatsBitForBit" $OUT/checks/egemm_cuda_tests.log | head -20
rm -f $OUT/checks/precision_profile.md
