#!/usr/bin/env bash
# Session 6 run 8 (experiment library in ../explib): where the drain's time goes at 8192 x 8192 x 64 (the tile is its
# epilogue): EGEMM_EXP_DRAIN=0 the consumers' own epilogue, 1 staged, 2 staged without the stores, 3 staged, drain does nothing
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$(cd ../explib && pwd):$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
for mode in 0 1 2 3; do
  echo "== EGEMM_EXP_DRAIN=$mode" | tee -a $S
  EGEMM_EXP_DRAIN=$mode timeout 100 bin/egemm_sm90_tile_sweep --shapes 8192x8192x64,4096x4096x4096 > $OUT/sweep-$mode.md 2> /dev/null
  grep -E "^\| (128x128x3|64x128x4|128x128x3c2)" $OUT/sweep-$mode.md | cut -c1-60 | tee -a $S
done
