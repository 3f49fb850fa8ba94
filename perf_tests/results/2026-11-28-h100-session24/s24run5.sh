#!/usr/bin/env bash
# Session 24, run 5 (branch ring-split): the digits' one-read split from shared memory against
# main's lagged split (287b58b as the baseline library): the digits' tests on every split form (one
# read on the GPU's grid, on 1 and on 3 blocks, two reads), the A/B of each kernel's time for
# Int8Slices and NormwiseFP32 at 8192^3 and 4096^3, then memcheck and racecheck on the digits' tests.
set -u
cd "$(dirname "$0")"
for f in lib/libegemm.so.0.1.0.xz baseline/libegemm.so.0.1.0.xz; do [[ -f $f ]] && xz -d "$f"; done
export OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv > /tmp/device.txt
TESTS_FILTER='CudaInt8Slices.*:CudaNormwiseFP32.*:CudaDebugLog.*:CudaGemm/Int8Slices.*:CudaGemm/NormwiseFP32.*:CudaSwitches.*' \
AB_ROUNDS=4 AB_POLICIES=Int8Slices,NormwiseFP32 AB_SHAPES=8192x8192x8192,4096x4096x4096 AB_CALLS=9 \
SANITIZE_FILTER='CudaInt8Slices.EveryKernelGivesTheHostOraclesBits:CudaInt8Slices.ScaledRows*' \
SANITIZE_TOOLS="memcheck racecheck" SANITIZE_TIMEOUT_S=100 \
  ./run_device_checks.sh tests ab sanitize
echo "run_device_checks.sh tests ab sanitize: exit $?" | tee -a "$OUT/summary.txt"
cp /tmp/device.txt "$OUT/"
cd "$OUT" && tar -czf logs.tar.gz *.log && rm -f *.log
grep -E "###|split|GPU span|kernel" ab.md | head -40
