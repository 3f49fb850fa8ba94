#!/usr/bin/env bash
# Session 23, run 6 (two H100s; the session's library, main at 0d0d68e): the multi-device tests
# (skipped on one GPU), and the column sums' and cross kernel's change against a6a4c1b once more
# on another board, alternating.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz baseline/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=index,name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/lib timeout 120 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaMultiDevice.*' > "$out/multi_device.log" 2>&1
echo "CudaMultiDevice.*: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
grep -E '^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]' "$out/multi_device.log" >> "$out/device.txt"
OUT=$out CUDA_VISIBLE_DEVICES=0 AB_ROUNDS=4 AB_POLICIES=NormwiseFP32 AB_SHAPES=8192x8192x8192,4096x4096x4096 AB_CALLS=9 \
  timeout 300 ./run_device_checks.sh ab
echo "ab rc=$?" >> "$out/device.txt"
cat "$out/device.txt"
