#!/usr/bin/env bash
# Session 21 run 2 (library 1694422, warm machine of run 1): the suite of run 1, whose filter had matched nothing ($ where the names go on).
# NormwiseFP32 against EmulatedFP32, Int8Slices and SGEMM at the shapes around the route's
# threshold, as users get it and with the route forced (EGEMM_SMALL_GEMM_FALLBACK=0).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
shapes='2048x2048x2048|4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096'
t1=$SECONDS
timeout 150 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm)/($shapes)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t1)) s"
t1=$SECONDS
EGEMM_SMALL_GEMM_FALLBACK=0 timeout 80 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|4096x4096x8192|16384x4096x4096)/" \
  --benchmark_out=$OUT/suite_forced.json --benchmark_out_format=json > $OUT/suite_forced.log 2>&1
echo "suite (route forced): exit $? in $((SECONDS - t1)) s"
for s in suite suite_forced; do
  python3 report.py $OUT/$s.json --out /tmp/rep_$s --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep_$s/table.md $OUT/${s}_table.md && grep -E "^##|egemm|cublas" $OUT/${s}_table.md
done
echo "elapsed $((SECONDS - t0)) s"
