#!/usr/bin/env bash
# Session 16 run 7: which tiles of the INT8 speed-experiment library (two sums) run without a fault,
# and at what speed next to the unmodified library on the same forced tile.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
for tile in 64x128x4 64x128x2 128x64x4 128x128x2 128x128x3; do
  for lib in lib-int8-4 lib; do
    k=4096; [[ $lib == lib-int8-4 ]] && k=2048
    echo "=== $tile $lib k=$k"
    EGEMM_SM90_TILE=$tile LD_LIBRARY_PATH=$PWD/$lib timeout 60 bin/int8_emulation_cublas 4096 uniform egemm $k 2>&1 | grep -E "^\| EGEMM|what"
  done
done
