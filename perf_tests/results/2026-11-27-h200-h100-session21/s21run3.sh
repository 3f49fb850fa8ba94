#!/usr/bin/env bash
# Session 21 run 3 (library 1694422, warm machine of runs 1-2): the route's threshold at its edges,
# forced (EGEMM_SMALL_GEMM_FALLBACK=0): the suite's skewed shapes at N = 2048 for NormwiseFP32 and
# EmulatedFP32, and the traced GPU span of 8192x8192x2048 and 2048x2048x8192 for both; then the
# large shapes as users get them (NormwiseFP32, EmulatedFP32, Int8Slices, SGEMM).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
EGEMM_SMALL_GEMM_FALLBACK=0 timeout 60 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|cublas_sgemm)/(8192x2048x2048|2048x2048x4096)/" \
  --benchmark_out=$OUT/suite_forced.json --benchmark_out_format=json > $OUT/suite_forced.log 2>&1
echo "suite (route forced): exit $?"
EGEMM_SMALL_GEMM_FALLBACK=0 timeout 60 bin/egemm_call_timeline --shapes 8192x8192x2048,2048x2048x8192 --policies NormwiseFP32,EmulatedFP32 --calls 5 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^###|^Medians" $OUT/timeline.txt | head -20
timeout 200 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm)/(16384x16384x16384|8192x8192x16384|32768x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
for s in suite_forced suite; do
  python3 report.py $OUT/$s.json --out /tmp/rep_$s --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep_$s/table.md $OUT/${s}_table.md && grep -E "^##|egemm|cublas" $OUT/${s}_table.md
done
echo "elapsed $((SECONDS - t0)) s"
