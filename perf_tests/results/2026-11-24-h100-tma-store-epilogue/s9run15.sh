#!/usr/bin/env bash
# Session 9 run 15: the tile sweep timing every tile in two passes of opposite order (the pair,
# last in the list, was timed on a GPU warmed by all the others), one call at a time and in a
# stream, at the shapes of issue #5.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
timeout 500 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192,4096x4096x8192,16384x4096x4096 \
  --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$?"
grep -E "^Model's pick|^The model's pick" $OUT/sweep.md
grep -E "^\| 128x128x3 |^\| 128x128x3c2" $OUT/sweep.md | cut -d'|' -f2-7
