#!/usr/bin/env bash
# Session 19 run 6 (library a2c4193: run 5's library with the split's panels 16-byte aligned; the panel rule, checked in the
# digits' split): every GPU check; the NormwiseFP32 and Int8Slices tests with
# stream-K forced; the suite at 8192^3 and (N, N, 2N) for NormwiseFP32,
# Int8Slices, EmulatedFP32, SGEMM and the four-call emulation; the digits'
# split on the timeline (the panel check's cost).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure|FAILED" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "CudaNormwiseFP32|CudaInt8Slices|CudaDebugLog" $OUT/checks/egemm_cuda_tests.log | grep -E "OK \]|FAILED \]" | tee $OUT/checks/digits_tests.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/demo.log $OUT/checks/precision_profile.md
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaNormwiseFP32.*:CudaInt8Slices.*' > $OUT/stream_k_forced.log 2>&1
echo "GPU tests with stream-K forced: exit $?" | tee $OUT/stream_k_forced.txt
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" $OUT/stream_k_forced.log | head -12 | tee -a $OUT/stream_k_forced.txt; rm -f $OUT/stream_k_forced.log
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192|4096x4096x8192)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /dev/null 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md; grep -E "^## |Normwise|Int8|Emulated|sgemm |tc_emul" $OUT/suite_table.md
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 5 2>/dev/null | grep -E "^###|lagged_split|int8_route|^Medians" > $OUT/timeline.txt
cat $OUT/timeline.txt
echo "elapsed $((SECONDS - t0)) s"
