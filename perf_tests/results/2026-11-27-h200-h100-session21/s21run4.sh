#!/usr/bin/env bash
# Session 21 run 4 (library 1694422): where NormwiseFP32 loses 6% to Int8Slices on (4N, N, N) at
# N = 8192 (run 3): one call of each traced.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
timeout 100 bin/egemm_call_timeline --shapes 32768x8192x8192 --policies NormwiseFP32,Int8Slices --calls 3 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | head -40
