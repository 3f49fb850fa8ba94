#!/usr/bin/env bash
# Session 13 run 3: run 2's call_overhead at 1024^3 (the SGEMM hand-off) was noisy between
# processes (cuBLAS's own enqueue time 8-17 us); EmulatedFP32's enqueue read 14-16 us with the
# context check against 8 us without. Five processes per library, alternating, to tell.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for round in 1 2 3 4 5; do
  for lib in lib lib-before; do
    echo "## $lib, round $round" >> $OUT/call-overhead-1024.md
    LD_LIBRARY_PATH=$PWD/$lib taskset -c 2 bin/egemm_call_overhead 1024 >> $OUT/call-overhead-1024.md 2>&1
  done
done
grep -E "^## |egemm_|cublas_sgemm" $OUT/call-overhead-1024.md
