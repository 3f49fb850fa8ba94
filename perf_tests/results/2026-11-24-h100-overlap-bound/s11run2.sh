#!/usr/bin/env bash
# Session 11 run 2: the bound for a split running beside the gemm (experiment overlap_bound.cu,
# library with the EGEMM_SM90_SLOTS cap), 8192^3 and 4096^3, twice.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for r in 1 2; do
  ../exp/overlap_bound 8192 7 | tee -a $OUT/overlap-bound.md
  ../exp/overlap_bound 4096 9 | tee -a $OUT/overlap-bound.md
done
