#!/usr/bin/env bash
# Session 14 run 7: the suite after b51ece9 (up to 32 rotating input sets: 19 at 1024^3, was 8),
# uniform and wide inputs at 1024^3 and 2048^3, every method; report.py's table from it.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
timeout 300 bin/egemm_bench_suite --benchmark_filter='/(1024x1024x1024|2048x2048x2048)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"; tail -2 $OUT/suite.log
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-25 (session 14 run 7)" > /dev/null 2>&1
echo "report rc=$?"
cp $OUT/report/table.md $OUT/suite-table.md; rm -rf $OUT/report $OUT/suite.log
grep -E "^## M|^\| (egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation|egemm_RoundSplit4|cublas_half) " $OUT/suite-table.md
