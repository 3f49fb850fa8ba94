#!/usr/bin/env bash
# Session 6 run 1 (experiment, branch exp/side-copy): idle producer warps stream a split-sized conversion during the gemm
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
for shape in 4096x4096x4096 8192x8192x8192 16384x4096x4096; do
  for tile in "" 128x128x3; do
    for mode in 0 1 2; do
      EGEMM_SM90_TILE=$tile EGEMM_EXP_SIDE=$mode timeout 100 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/$shape/" > /dev/null 2> /tmp/err.txt
      python3 ../side_parse.py "$shape tile=${tile:-model} side=$mode" /tmp/err.txt | tee -a $S
    done
  done
done
