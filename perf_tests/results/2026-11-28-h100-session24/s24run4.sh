#!/usr/bin/env bash
# Session 24, run 4 (main at 287b58b): issue #5's other shapes in the suite's three regimes:
# 16384^3, (4N, N, N) and (N, N, 2N) at N = 8192, the FP32-accurate tags beside SGEMM and the
# four-call emulation, on the library whose GPU checks passed in runs 1-2.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 400 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(16384x16384x16384|32768x8192x8192|8192x8192x16384)/" \
  --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
cat "$out/device.txt"
