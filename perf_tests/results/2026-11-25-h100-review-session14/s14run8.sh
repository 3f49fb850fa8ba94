#!/usr/bin/env bash
# Session 14 run 8: egemm_call_overhead on DeviceProblem's fresh random inputs, each method's C
# checked against float64 after the timings (poisoned first); at 1024^3 and 2048^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for s in 1024 2048; do bin/egemm_call_overhead $s > $OUT/call-overhead-$s.md 2>&1; echo "call_overhead $s: exit $?"; cat $OUT/call-overhead-$s.md; done
