#!/usr/bin/env bash
# Session 22 run 6: the 1024^3 hand-off's cost over a bare SGEMM, warm and rested (run 5's suite had
# EmulatedFP32 at 0.90x SGEMM rested at 1024^3, 1.33x in the median): egemm_call_overhead, three times.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for i in 1 2 3; do timeout 100 bin/egemm_call_overhead 1024 > $OUT/call_overhead-$i.md 2>&1; echo "call overhead $i: exit $?"; cat $OUT/call_overhead-$i.md | grep -E "^\||^#" | head -12; done
