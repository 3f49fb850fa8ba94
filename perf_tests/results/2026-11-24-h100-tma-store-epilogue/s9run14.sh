#!/usr/bin/env bash
# Session 9 run 14: is the pair's slow kernel-alone time at 4096^3 the dependent launch of one
# sweep run into the next? The sweep at 4096^3 with dependent launches (as always) and with
# EGEMM_DEPENDENT_LAUNCH=0, alternating, two rounds.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for round in 1 2; do
  for dl in 1 0; do
    EGEMM_DEPENDENT_LAUNCH=$dl timeout 100 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096 > $OUT/sweep-dl$dl-r$round.md 2> /dev/null
    echo "EGEMM_DEPENDENT_LAUNCH=$dl r$round rc=$?"; grep -E "^\| 128x128x3 |^\| 128x128x3c2" $OUT/sweep-dl$dl-r$round.md | cut -d'|' -f2-7
  done
done
