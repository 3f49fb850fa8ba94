#!/usr/bin/env bash
# Session 12 run 9: the final library (352cee2) at the issue sizes: the suite at 4096^3, 8192^3 and
# 4096 x 4096 x 8192 in both regimes for EmulatedFP32, cuBLAS SGEMM and the four-call emulation,
# to show the review's host-side checks cost the large products nothing.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
EGEMM_SUITE_REGIMES=1 timeout 500 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|4096x4096x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 12 run 9)" > /dev/null 2>&1
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report
grep -E "^## M|^\| (egemm|cublas)" $OUT/suite-table.md
