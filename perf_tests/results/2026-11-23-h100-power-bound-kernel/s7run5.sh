#!/usr/bin/env bash
# Session 7 run 5: the new stream tests (a call returns while its stream is held; a captured graph replays)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 300 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaStreamSemantics*' > $OUT/stream-tests.log 2>&1; echo "rc=$?" | tee -a $S
grep -vE "^\[ RUN|^\[       OK" $OUT/stream-tests.log | head -80 | tee -a $S
