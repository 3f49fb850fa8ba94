#!/usr/bin/env bash
# Session 7 run 27: every policy on the per-thread default stream (CudaGemm/*.NonDefaultStream), and the stream tests
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
timeout 200 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemm/*.NonDefaultStream:CudaStreamSemantics*' > $OUT/streams.log 2>&1; echo "rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/streams.log | head -20
