#!/usr/bin/env bash
# Session 10 run 14: the suite after the review's refactor (its median through EventTimer),
# EmulatedFP32 and SGEMM at 4096^3 and 8192^3, with the regimes.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
EGEMM_SUITE_REGIMES=1 timeout 200 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm)/(4096x4096x4096|8192x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$?"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "session 10 run 14" > /dev/null 2>&1
grep -E "^## |egemm_Emu|cublas_sgemm" $OUT/report/table.md
