#!/usr/bin/env bash
# Session 10 run 12: the suite (sustained now ~1 s after ~1 s of warm-up) with EGEMM_SUITE_REGIMES=1 (each benchmark also one call on a rested
# GPU and a sustained stream) for EmulatedFP32, SGEMM, the four-call and Ootomo three-call
# emulations at issue #5's shapes, uniform inputs.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 520 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation|cublas_ootomo3)/(1024x1024x1024|2048x2048x2048|4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096|32768x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), 2026-11-24 (session 10 run 12)" > /dev/null 2>&1
grep -E "^## |egemm_EmulatedFP32 |cublas_tc_emulation " $OUT/report/table.md
