#!/usr/bin/env bash
# Session 6 run 14: the branch-free epilogue (043c3f4) against the base library: ncu instruction counts at
# 8192 x 8192 x 64 (first sweep candidate, 128x128x3), kernel-alone sweeps at 8192^3 and 16384 x 4096 x 4096, twice
cd "$(dirname "$0")/main"
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
for lib in new base; do
  L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
  LD_LIBRARY_PATH=$L timeout 200 /usr/local/cuda/bin/ncu --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k regex:tma_wgmma_gemm_kernel -c 1 --csv bin/egemm_sm90_tile_sweep --shapes 8192x8192x64 2>/dev/null | grep '^"' | awk -F'","' '{print $(NF-2), $NF}' | tail -2 | sed "s/^/$lib ncu 8192x8192x64 /" | tee -a $S
done
for round in 1 2; do for lib in new base; do
  L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
  LD_LIBRARY_PATH=$L timeout 200 bin/egemm_sm90_tile_sweep --shapes 8192x8192x8192,16384x4096x4096 > /tmp/sw.md 2>/dev/null
  grep -E "^\| (128x128x3 |128x128x3c2)" /tmp/sw.md | cut -c1-60 | sed "s/^/$lib r$round /" | tee -a $S
done; done
