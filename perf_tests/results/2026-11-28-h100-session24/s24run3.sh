#!/usr/bin/env bash
# Session 24, run 3 (main at 287b58b): the power budget of an EmulatedFP32 call on the session's
# library (egemm_power_budget: the split, a plain copy of its bytes, the gemm kernel, three cuBLAS
# HGEMMs on the hi pieces, the whole call, SGEMM; sustained streams and rested calls), then the
# suite's three regimes at 8192^3 for the FP32-accurate tags beside SGEMM and the four-call emulation.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS; timeout 200 bin/egemm_power_budget --shapes 8192x8192x8192,4096x4096x4096 --seconds 3 > "$out/power.md" 2> "$out/power.err"
echo "power budget: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 200 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192)/" \
  --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
cat "$out/device.txt" "$out/power.md"
