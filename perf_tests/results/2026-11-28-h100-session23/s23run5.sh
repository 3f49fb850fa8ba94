#!/usr/bin/env bash
# Session 23, run 5 (the session's library, main at 0d0d68e): the suite in its three regimes at
# issue #5's shapes for the FP32-accurate tags, Int8Slices, SGEMM and the four-call emulation.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 540 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|32768x8192x8192|8192x8192x16384)/" \
  --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
python3 report.py "$out/suite.json" --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 \
  && cp /tmp/rep/table.md "$out/suite_table.md"
cat "$out/device.txt"; grep -E "^##|egemm|cublas" "$out/suite_table.md"
