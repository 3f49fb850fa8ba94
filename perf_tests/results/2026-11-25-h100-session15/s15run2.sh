#!/bin/bash
# Session 15, run 2: the kernel's three wgmmas per k16 slice with op(A) from
# shared memory (today) against op(A) from registers loaded once per piece.
set -u
cd "$(dirname "$0")"
export PATH=$PATH:/usr/local/cuda/bin
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u; } | tee $OUT/run2-device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_operand_source_energy.cu -o /tmp/wose || exit 1
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run2-smi.csv &
SMI=$!
sleep 1
/tmp/wose 4 2 | tee $OUT/run2-wgmma-operand-source.csv
kill $SMI
python3 phase_clocks.py $OUT/run2-smi.csv $OUT/run2-wgmma-operand-source.csv
