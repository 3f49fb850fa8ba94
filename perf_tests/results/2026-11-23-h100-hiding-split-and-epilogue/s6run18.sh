#!/usr/bin/env bash
# Session 6 run 18: the split kernel per SASS instruction at 4096^3 (ncu source counters), final code 043c3f4
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 250 /usr/local/cuda/bin/ncu --section WarpStateStats --section SourceCounters --section InstructionStats -k regex:'split_kernel' -c 1 \
  --page source --csv --print-source sass bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/4096x4096x4096/" > $OUT/split-source.csv 2> $OUT/ncu.err
echo "ncu rc=$? lines $(wc -l < $OUT/split-source.csv)" | tee -a $S
