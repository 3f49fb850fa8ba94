#!/usr/bin/env bash
# Session 6 run 20 (commit 7e5359f, final code): run_device_checks.sh tests, then the whole suite with its figures
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
export LD_LIBRARY_PATH=$PWD/lib
t0=$SECONDS
timeout 300 bin/egemm_bench_suite --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 report.py $OUT/suite.json --out $OUT/report --title "$GPU, 2026-11-23 (session 6, final code 7e5359f)" > /dev/null 2>&1; echo "report rc=$?"
rm -f $OUT/checks/precision_profile.md $OUT/checks/egemm_cuda_tests.log $OUT/report/fig7_error.png $OUT/report/fig8_square.png
ls -R $OUT | head -20
