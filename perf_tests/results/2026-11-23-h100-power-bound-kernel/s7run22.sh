#!/usr/bin/env bash
# Session 7 run 22: the model's pick against the tile sweep at the smaller suite shapes
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
timeout 400 bin/egemm_sm90_tile_sweep --shapes 2048x2048x2048,2048x2048x4096,8192x2048x2048,4096x1024x1024 --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$?"; grep -E "^Model's pick|^The model's pick|^### " $OUT/sweep.md
