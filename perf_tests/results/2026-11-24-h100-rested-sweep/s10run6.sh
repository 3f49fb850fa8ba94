#!/usr/bin/env bash
# Session 10 run 6: the power budget (sustained streams and rested single calls) at issue #5's
# skewed shapes: (N, N, 2N) and (4N, N, N) for N = 4096 and 8192.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
timeout 400 bin/egemm_power_budget --seconds 1 \
  --shapes 4096x4096x8192,16384x4096x4096,8192x8192x16384,32768x8192x8192 > $OUT/power.md 2> $OUT/power.log
echo "power budget rc=$? in $((SECONDS - t0)) s"
grep -E "^###|^One call|^The gemm|^Whole" $OUT/power.md; tail -2 $OUT/power.log
