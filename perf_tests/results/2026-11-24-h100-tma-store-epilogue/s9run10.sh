#!/usr/bin/env bash
# Session 9 run 10: the model's epilogue cost per entry, refitted for the staged epilogue: the
# one-k-tile shape 8192 x 8192 x 64 (a tile is its epilogue), staged and with
# EGEMM_SM90_C_STORE=registers; and the sweep at 4096^3 and 8192^3 (the pick, predictions).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for store in tma registers; do
  EGEMM_SM90_C_STORE=$store timeout 100 bin/egemm_sm90_tile_sweep --shapes 8192x8192x64 > $OUT/sweep-epilogue-$store.md 2> /dev/null
  echo "8192x8192x64 $store rc=$?"; grep -E "^\| 128x128x3 |^\| 128x128x3c2|^\| 128x64x4 |^\| 64x128x4 " $OUT/sweep-epilogue-$store.md | cut -d'|' -f2-7
done
timeout 150 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192 > $OUT/sweep.md 2> /dev/null
echo "sweep rc=$?"; grep -E "^Model's pick" $OUT/sweep.md
