#!/usr/bin/env bash
# Session 9 run 1: where the Hopper kernel's epilogue time goes. Three builds of the same library
# (EGEMM_EXPERIMENT_EPILOGUE): 0 as committed, 1 no epilogue, 2 the epilogue's arithmetic with its
# values stored to shared memory only (what a TMA-store epilogue would cost the consumers).
# Kernel alone (egemm_sm90_tile_sweep), two rounds alternating the builds.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,power.limit,clocks.max.sm --format=csv,noheader; date -u
for round in 1 2; do
  for m in m0 m1 m2; do
    LD_LIBRARY_PATH=$PWD/../var/$m:$PWD/lib timeout 200 bin/egemm_sm90_tile_sweep \
      --shapes 4096x4096x4096,16384x4096x4096,8192x8192x8192 > $OUT/sweep-$m-r$round.md 2> $OUT/sweep-$m-r$round.log
    echo "round $round $m rc=$?"
    grep -E "^### |\(model's pick\)" $OUT/sweep-$m-r$round.md | awk -F'|' '/###/ {print} /pick/ {print "  " $2 $3 $4}'
  done
done
cd $OUT && tar czf run1.tgz sweep-*.md && rm -f sweep-*.md
