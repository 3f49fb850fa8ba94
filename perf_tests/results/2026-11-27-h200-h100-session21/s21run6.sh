#!/usr/bin/env bash
# Session 21 run 6 (library 63d7445 with the timeline tool's --inputs): on the suite's wide inputs
# at 8192^3, where NormwiseFP32's route rejects the digits and its fallback runs, one call of each
# traced (the fallback's split walking its panels against EmulatedFP32's one-a-panel split) and the
# suite's figure again; at 8192^3 uniform, NormwiseFP32 and Int8Slices traced (the route's cost).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
timeout 100 bin/egemm_call_timeline --shapes 8192x8192x8192 --inputs wide --policies NormwiseFP32,EmulatedFP32 --calls 5 > $OUT/timeline_wide.txt 2>&1
echo "timeline (wide): exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline_wide.txt | grep -v cublas | head -40
timeout 100 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 5 > $OUT/timeline.txt 2>&1
echo "timeline (uniform): exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | head -40
timeout 100 bin/egemm_bench_suite --benchmark_filter="wide/(egemm_NormwiseFP32|egemm_EmulatedFP32|cublas_sgemm)/8192x8192x8192/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
