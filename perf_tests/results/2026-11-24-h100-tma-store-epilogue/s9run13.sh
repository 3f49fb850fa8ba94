#!/usr/bin/env bash
# Session 9 run 13: single block against pair at 4096^3 and 4096 x 4096 x 8192 on one machine, both
# ways that disagreed across machines: the whole call queued 200 deep (egemm_call_overhead, as run 6)
# and the kernel alone in a stream (the tile sweep, as run 12); two rounds each.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for round in 1 2; do
  for shape in "4096 4096 4096" "4096 4096 8192"; do
    for tile in 128x128x3 128x128x3c2; do
      EGEMM_SM90_TILE=$tile timeout 120 bin/egemm_call_overhead $shape > $OUT/o.txt 2>&1
      echo "call r$round $shape $tile: $(grep egemm_EmulatedFP32 $OUT/o.txt | awk -F'|' '{print "queued", $4, "call", $5}')"
      cat $OUT/o.txt >> $OUT/call-overhead.txt
    done
  done
  timeout 150 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,4096x4096x8192 > $OUT/sweep-r$round.md 2> /dev/null
  echo "sweep r$round rc=$?"; grep -E "^\| 128x128x3 |^\| 128x128x3c2" $OUT/sweep-r$round.md | cut -d'|' -f2-7
done
rm -f $OUT/o.txt
