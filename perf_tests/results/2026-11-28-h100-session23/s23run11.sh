#!/usr/bin/env bash
# Session 23, run 11 (the session's last library, main at 3ba3a40): every CUDA test, the reset tests,
# and the suite in its three regimes at 4096^3, 8192^3 and 16384^3.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS; timeout 240 bin/egemm_cuda_tests --gtest_color=no > "$out/cuda_tests.log" 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
grep -E '^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]' "$out/cuda_tests.log" >> "$out/device.txt"
t0=$SECONDS; timeout 60 bin/egemm_cuda_reset_tests --gtest_color=no > "$out/reset_tests.log" 2>&1
echo "egemm_cuda_reset_tests: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]' "$out/reset_tests.log" >> "$out/device.txt"
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 200 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384)/" \
  --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
tar -C "$out" -czf "$out/logs.tar.gz" cuda_tests.log reset_tests.log
rm -f "$out"/cuda_tests.log "$out"/reset_tests.log
cat "$out/device.txt"
