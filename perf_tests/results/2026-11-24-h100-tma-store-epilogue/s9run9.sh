#!/usr/bin/env bash
# Session 9 run 9: every GPU test once on the final test binary (the library is run 7's).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
bin/egemm_cuda_tests > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $?"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log > $OUT/cuda-tests-summary.txt
rm -f $OUT/cuda-tests.log
