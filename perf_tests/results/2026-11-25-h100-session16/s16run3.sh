#!/usr/bin/env bash
# Session 16 run 3: each emulation's inner loop from shared memory under the 700 W cap
# (wgmma_emulation_mix_energy.cu): EmulatedFP32's three FP16 products with the fold
# against six INT8 products into three int32 sums; SM clock and power every 100 ms.
cd "$(dirname "$0")/main"
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run3-device.txt; date -u | tee -a $OUT/run3-device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v wgmma_emulation_mix_energy.cu -o /tmp/wme > $OUT/run3-build.txt 2>&1
cuobjdump --dump-sass /tmp/wme | grep -oE "(HGMMA|IGMMA)\.[A-Z0-9.]*|LDL|STL" | sort | uniq -c >> $OUT/run3-build.txt
grep -E "spill|registers|GMMA|LDL|STL" $OUT/run3-build.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run3-smi.csv &
SMI=$!
sleep 1
/tmp/wme 5 3 | tee $OUT/run3-mix.csv
kill $SMI
python3 phase_clocks.py $OUT/run3-smi.csv $OUT/run3-mix.csv | tee $OUT/run3-mix-table.md
