#!/usr/bin/env bash
# Session 23, run 3: NormwiseFP32's column sums in four instructions a row (every value squared, a
# zero seen by the smallest |x|, Inf or NaN by the sum) and the cross kernel's loads four panels at
# a time, against main (a6a4c1b): the tests of the changed kernels (the debug-log test now with Inf
# and NaN), then each kernel's own time, alternating.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d baseline/libegemm.so.0.1.0.xz lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
LD_LIBRARY_PATH=$PWD/lib timeout 300 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.*:CudaGemm/Int8Slices.*:CudaGemm/NormwiseFP32.*:CudaSplit.*:CudaSpecialValues/*' \
  > "$out/tests.log" 2>&1
echo "tests rc=$?" >> "$out/device.txt"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests ran|Failure' "$out/tests.log" >> "$out/device.txt"
OUT=$out AB_ROUNDS=4 AB_POLICIES=NormwiseFP32 AB_SHAPES=8192x8192x8192,4096x4096x4096 AB_CALLS=9 \
  timeout 400 ./run_device_checks.sh ab
echo "ab rc=$?" >> "$out/device.txt"
cat "$out/device.txt"
