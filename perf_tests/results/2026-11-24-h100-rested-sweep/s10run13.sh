#!/usr/bin/env bash
# Session 10 run 13: call_overhead at 1024^3 and 1024 x 1024 x 2048 with rested single calls (GPU
# time and the host's time in the call), three times: where a rested hand-off to SGEMM loses time.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for i in 1 2 3; do
  bin/egemm_call_overhead 1024 | tee -a $OUT/call-overhead.md
  bin/egemm_call_overhead 1024 1024 2048 | tee -a $OUT/call-overhead.md
done
