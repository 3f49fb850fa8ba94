#!/usr/bin/env bash
# Session 23, run 10: the column sums' sign flag and the cross kernel's single round trip a batch (one more
# commit) against 75fbf08 (run 9's library): the route's
# and NormwiseFP32's tests, memcheck, racecheck and synccheck on the route's, then each kernel's own time.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz baseline/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
timeout 200 bin/egemm_cuda_tests --gtest_color=no \
  --gtest_filter='CudaNormwiseFP32.*:CudaDebugLog.*:CudaGemm/NormwiseFP32.*:CudaSpecialValues/*:CudaStreamSemantics/*' > "$out/tests.log" 2>&1
echo "tests: exit $?" >> "$out/device.txt"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests ran|Failure' "$out/tests.log" >> "$out/device.txt"
for tool in memcheck racecheck synccheck; do
  t0=$SECONDS
  timeout 120 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
    --gtest_filter='CudaNormwiseFP32.TheCrossKernelSumsInTheHostsOrder:CudaNormwiseFP32.TheRouteCounts*:CudaDebugLog.Normwise*:CudaNormwiseFP32.FewEntries*:CudaNormwiseFP32.SpecialValues*' \
    > "$out/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
  grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY|RACECHECK SUMMARY' "$out/sanitize-$tool.log" >> "$out/device.txt"
done
OUT=$out AB_ROUNDS=4 AB_POLICIES=NormwiseFP32 AB_SHAPES=8192x8192x8192,4096x4096x4096 AB_CALLS=9 timeout 200 ./run_device_checks.sh ab
echo "ab rc=$?" >> "$out/device.txt"
tar -C "$out" -czf "$out/logs.tar.gz" tests.log sanitize-memcheck.log sanitize-racecheck.log sanitize-synccheck.log
rm -f "$out"/tests.log "$out"/sanitize-*.log
cat "$out/device.txt"
grep -E "###|split|cross_kernel|route_kernel|GPU span" "$out/ab.md"
