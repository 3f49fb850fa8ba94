#!/usr/bin/env bash
# Session 10 run 4: the power budget with cuBLAS HGEMM on the hi pieces beside it (the vendor's energy per
# FP16 product), at 8192^3 and 4096^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
timeout 200 bin/egemm_power_budget --shapes 8192x8192x8192,4096x4096x4096 > $OUT/power.md 2> $OUT/power.log
echo "power budget rc=$? in $((SECONDS - t0)) s"
cat $OUT/power.md; tail -3 $OUT/power.log
