#!/usr/bin/env bash
# Session 9 run 16 (the last commit: the staged epilogue called through epilogue() with a sink, a
# refactor): every GPU test once.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
bin/egemm_cuda_tests > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $?"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log | tee $OUT/cuda-tests-summary.txt
grep -E "Failure" -A5 $OUT/cuda-tests.log | head -20
rm -f $OUT/cuda-tests.log
