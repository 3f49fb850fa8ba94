#!/usr/bin/env bash
# Session 7 run 10 (the library of dad886f; the suite with a warm-up of at least 50 ms per method):
# the whole suite and its figures
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
t0=$SECONDS
timeout 400 bin/egemm_bench_suite --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 report.py $OUT/suite.json --out /tmp/report --title "$GPU, 2026-11-23 (session 7, final code)" > /dev/null 2>&1; echo "report rc=$?"
mkdir -p $OUT/report && cp /tmp/report/table.md /tmp/report/headline.png /tmp/report/fig9_skewed.png /tmp/report/fig_wide.png $OUT/report/
grep -E "uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)/1024|wide/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)/1024" /tmp/suite.log | awk '{print $1, $2, $3}'
