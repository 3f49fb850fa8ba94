#!/usr/bin/env bash
# Session 11 run 6: the hand-off's host pieces warm (host_breakdown.cu against 6ea6f6b's library:
# run 5's copy was a stale build) and after a pause, pieces added one at a time and interleaved
# (host_rested.cu), twice.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
../exp/host_breakdown | tee $OUT/host-breakdown.md
for i in 1 2; do ../exp/host_rested 25 | tee -a $OUT/host-rested.md; done
