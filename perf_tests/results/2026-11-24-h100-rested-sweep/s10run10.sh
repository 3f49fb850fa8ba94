#!/usr/bin/env bash
# Session 10 run 10: the final tile sweep binary (timings named rested/sustained, the model's
# prediction over the sustained time) at 4096^3 and 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
timeout 200 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192 --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$? in $((SECONDS - t0)) s"
grep -E "^Model's pick|^The model's pick" $OUT/sweep.md
grep -E "^\| tile|^\| 128x128x3 |^\| 128x128x3c2" $OUT/sweep.md
