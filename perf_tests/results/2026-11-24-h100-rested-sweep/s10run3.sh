#!/usr/bin/env bash
# Session 10 run 3: the power budget with a plain copy of the split's bytes beside the split (what
# moving them costs at the least), at 8192^3, 4096^3 and 16384^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
timeout 200 bin/egemm_power_budget --shapes 8192x8192x8192,4096x4096x4096,16384x16384x16384 > $OUT/power.md 2> $OUT/power.log
echo "power budget rc=$? in $((SECONDS - t0)) s"
cat $OUT/power.md; tail -3 $OUT/power.log
