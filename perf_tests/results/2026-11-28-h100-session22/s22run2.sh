#!/usr/bin/env bash
# Session 22 run 2 (NormwiseFP32's column sums in the split: an FMA for the squares, each row's 4^e
# from shared memory, the weights over all 32 rows unless some row does not count, then a second
# loop over those that do: ~11 instructions a row where there were ~20): NormwiseFP32 and
# Int8Slices traced at 8192^3 (plain launches); the suite at 8192^3 in three regimes; the GPU tests
# of the split's users; compute-sanitizer's four tools on NormwiseFP32's and Int8Slices' tests.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
EGEMM_DEPENDENT_LAUNCH=0 timeout 100 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies NormwiseFP32,Int8Slices --calls 7 > $OUT/timeline.txt 2>&1
echo "timeline: exit $?"; grep -E "^###|^Medians|^\| [0-9]+ \|" $OUT/timeline.txt | grep -v cublas | grep -E "###|Medians|split|cross|route|wgmma_gemm_kernel \| 132 \(clusters of 2\) \| [0-9.]+ \| [0-9]{3}"
t0=$SECONDS
EGEMM_SUITE_REGIMES=1 timeout 240 bin/egemm_bench_suite --benchmark_filter="uniform/(egemm_NormwiseFP32|egemm_EmulatedFP32|egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192)/" \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1 && cp /tmp/rep/table.md $OUT/suite_table.md && grep -E "^##|egemm|cublas" $OUT/suite_table.md
filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.*:CudaGemm/Int8Slices.*:CudaGemm/NormwiseFP32.*:CudaSplit.*'
t0=$SECONDS; timeout 150 bin/egemm_cuda_tests --gtest_color=no --gtest_filter="$filter" > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests ($filter): exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12; grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
for tool in memcheck racecheck synccheck initcheck; do
  t0=$SECONDS
  timeout 90 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 86 bin/egemm_cuda_tests --gtest_color=no \
    --gtest_filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.Normwise*:-CudaInt8Slices.TheDeepestSum*' > $OUT/sanitize-$tool.log 2>&1
  echo "compute-sanitizer --tool $tool: exit $? in $((SECONDS - t0)) s"
  grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[==========\] [0-9]+ tests|ERROR SUMMARY|RACECHECK SUMMARY' $OUT/sanitize-$tool.log | head -6
done
