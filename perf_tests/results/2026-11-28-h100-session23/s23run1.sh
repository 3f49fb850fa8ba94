#!/usr/bin/env bash
# Session 23, run 1: the split's column sums beside the digits' stores and the cross kernel's
# staged loads (branch experiment/split-column-sums-beside-stores, b91f851) against main (a6a4c1b):
# the tests of the changed kernels, then each kernel's own time, alternating.
set -u
cd "$(dirname "$0")"
xz -d baseline/libegemm.so.0.1.0.xz lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
LD_LIBRARY_PATH=$PWD/lib timeout 300 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.*:CudaGemm/Int8Slices.*:CudaGemm/NormwiseFP32.*:CudaSplit.*' \
  > "$out/tests.log" 2>&1
echo "tests rc=$?" >> "$out/device.txt"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests ran' "$out/tests.log" >> "$out/device.txt"
OUT=$out AB_ROUNDS=3 AB_POLICIES=NormwiseFP32,Int8Slices AB_SHAPES=8192x8192x8192,4096x4096x4096 AB_CALLS=9 \
  timeout 400 ./run_device_checks.sh ab
echo "ab rc=$?" >> "$out/device.txt"
ls "$out"
