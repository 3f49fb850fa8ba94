#!/usr/bin/env bash
# Session 6 run 15 (commit 043c3f4, final code): the Kokkos tests and demo, then the whole suite with its figures
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
export LD_LIBRARY_PATH=$PWD/lib
timeout 100 bin/egemm_kokkos_tests --gtest_color=no > $OUT/egemm_kokkos_tests.log 2>&1; echo "kokkos tests rc=$?"; grep -E "^\[  (PASSED|FAILED)" $OUT/egemm_kokkos_tests.log
t0=$SECONDS
timeout 400 bin/egemm_bench_suite --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 report.py $OUT/suite.json --out $OUT/report --title "$GPU, 2026-11-23 (session 6, final code 043c3f4)" > /dev/null 2>&1; echo "report rc=$?"
rm -f $OUT/report/fig7_error.png $OUT/report/fig8_square.png
ls -R $OUT | head -20
