#!/usr/bin/env bash
# Session 7 run 7: operands and C past 2^31 elements (CudaLargeOperands) on each kernel
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,memory.total --format=csv,noheader; date -u; } | tee -a $S
t0=$SECONDS
timeout 400 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaLargeOperands*' > $OUT/large-tests.log 2>&1; echo "rc=$? in $((SECONDS - t0)) s" | tee -a $S
grep -vE "^\[ RUN" $OUT/large-tests.log | head -60 | tee -a $S
