#!/usr/bin/env bash
# Session 11 run 11 (experiment, v2): the Hopper kernel with exponents per k-tile's cost, the k-tile's
# 32 column and 2 row factors built once and a multiply and an FMA an entry per sum (main/lib), against
# the library as committed (base/lib),
# kernel alone, tile sweep at 4096^3 and 8192^3, rested and sustained, base / experiment / base.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for v in base main base; do
  echo "### $v"
  LD_LIBRARY_PATH=$PWD/$v/lib main/bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192 \
    --csv $OUT/sweep-$v-$SECONDS.csv > $OUT/sweep-$v-$SECONDS.md 2>/dev/null
  ls -t $OUT/sweep-$v-*.md | head -1 | xargs grep -E "^### |^\| 128x128x3 |^\| 128x128x3c2" 
done
