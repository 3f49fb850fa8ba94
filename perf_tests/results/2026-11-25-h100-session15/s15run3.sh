#!/bin/bash
# Session 15, run 3: as run 2, one block per SM (as the kernel runs), and rs3_tile: op(A) from
# registers a whole k-tile at a time (more registers than the kernel has).
set -u
cd "$(dirname "$0")"
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u; } | tee $OUT/run3-device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_operand_source_energy.cu -o /tmp/wose || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run3-smi.csv &
SMI=$!
sleep 1
/tmp/wose 4 2 | tee $OUT/run3-wgmma-operand-source.csv
kill $SMI
python3 phase_clocks.py $OUT/run3-smi.csv $OUT/run3-wgmma-operand-source.csv
