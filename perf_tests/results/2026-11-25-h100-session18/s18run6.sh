#!/usr/bin/env bash
# Session 18 run 6 (the lagged split, digits by byte permutes, 16-byte loads and
# stores; the cluster split gone): every GPU check (run_device_checks.sh tests),
# then the GEMM suite for Int8Slices, EmulatedFP32, cuBLAS SGEMM and the four-call
# emulation on issue #5 shapes, and the Int8Slices split kernels on the timeline.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "^\[ accuracy \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/accuracy-lines.txt
EGEMM_SM90_STREAM_K=1 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemm/*:CudaFusedKernel.*:CudaAccuracy*:CudaInt8Slices.*' > $OUT/stream_k_forced.log 2>&1
echo "GPU tests with stream-K forced: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" $OUT/stream_k_forced.log | head -12; rm -f $OUT/stream_k_forced.log
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/demo.log $OUT/checks/precision_profile.md
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096|32768x8192x8192)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md; cat $OUT/suite_table.md
rm -f $OUT/suite.log
EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192,16384x16384x16384 --policies Int8Slices --calls 5 2>/dev/null \
  | grep -E "^###|split_kernel|maxima|digits_kernel|tma_wgmma|^Medians" | grep -v "cuBLAS" > $OUT/timeline.txt
cat $OUT/timeline.txt
