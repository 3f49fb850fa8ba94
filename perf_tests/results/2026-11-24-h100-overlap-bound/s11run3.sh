#!/usr/bin/env bash
# Session 11 run 3: run 2's overlap bound at 8192^3 with the stream-K tail off (EGEMM_SM90_STREAM_K=0):
# in run 2 the tail's fixup blocks, launched as dependents, sat on the SMs left free and kept the split off them.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib EGEMM_SM90_STREAM_K=0
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for r in 1 2; do
  ../exp/overlap_bound 8192 7 | tee -a $OUT/overlap-bound.md
done
../exp/overlap_bound 4096 9 | tee -a $OUT/overlap-bound.md
