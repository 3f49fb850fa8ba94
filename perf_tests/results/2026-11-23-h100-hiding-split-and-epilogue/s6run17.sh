#!/usr/bin/env bash
# Session 6 run 17: what bounds the split kernel at 4096^3 (ncu SpeedOfLight, WarpStateStats), final code 043c3f4
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 200 /usr/local/cuda/bin/ncu --section SpeedOfLight --section WarpStateStats --section Occupancy --section LaunchStats -k regex:'split_kernel' -c 1 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/4096x4096x4096/" > $OUT/ncu-split.txt 2>&1
grep -E "Duration|Throughput|Stall|Issue|Occupancy|Registers|Block Limit|Warp Cycles|Eligible|Active Warps" $OUT/ncu-split.txt | head -60 | tee -a $S
