#!/usr/bin/env bash
# Session 23, run 4: the session's library (main at 0d0d68e: the column sums in four instructions a
# row, the cross kernel's batched loads): every CUDA test, the reset tests, the precision profile,
# and compute-sanitizer's memcheck and racecheck on the tests of the changed kernels.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/lib
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
t0=$SECONDS; timeout 240 bin/egemm_cuda_tests --gtest_color=no > "$out/cuda_tests.log" 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
grep -E '^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]' "$out/cuda_tests.log" >> "$out/device.txt"
t0=$SECONDS; timeout 60 bin/egemm_cuda_reset_tests --gtest_color=no > "$out/reset_tests.log" 2>&1
echo "egemm_cuda_reset_tests: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
grep -E '^\[  PASSED  \]|^\[  FAILED  \]' "$out/reset_tests.log" >> "$out/device.txt"
t0=$SECONDS; timeout 60 bin/egemm_precision_profile 400 > "$out/precision_profile.md" 2>&1
echo "precision profile: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
for tool in memcheck racecheck; do
  filter='CudaNormwiseFP32.*:CudaDebugLog.Normwise*'
  [[ $tool == racecheck ]] &&  # the cross rule's test on every kernel takes racecheck >150 s
    filter='CudaDebugLog.Normwise*:CudaNormwiseFP32.TheCrossKernelSumsInTheHostsOrder:CudaNormwiseFP32.SpecialValues*:CudaNormwiseFP32.Narrow*'
  t0=$SECONDS
  timeout 150 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests \
    --gtest_color=no --gtest_filter="$filter" > "$out/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $? in $((SECONDS - t0)) s" >> "$out/device.txt"
  grep -E '^\[  PASSED  \]|^\[  FAILED  \]|ERROR SUMMARY|RACECHECK SUMMARY|tests ran' "$out/sanitize-$tool.log" >> "$out/device.txt"
done
tar -C "$out" -czf "$out/logs.tar.gz" cuda_tests.log reset_tests.log sanitize-memcheck.log sanitize-racecheck.log
rm -f "$out"/cuda_tests.log "$out"/reset_tests.log "$out"/sanitize-*.log
cat "$out/device.txt"
