#!/usr/bin/env bash
# Session 18 run 3: the lagged split's lag (how many panels behind its
# gathering a block writes digits): 128 (run 2) left blocks waiting for row
# panels still being read; kernel times at 8192^3 and 4096x4096x8192 for lags
# of 128 to 2048, the cluster and two-read splits beside them, then the
# Int8Slices tests on the chosen default.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for round in 1 2; do
for v in lag128 lag512 lag1024 lag2048 cluster two_reads; do
  case $v in lag*) env="EGEMM_INT8_SPLIT_EXPERIMENT_LAG=${v#lag}";; cluster) env="EGEMM_INT8_SPLIT_EXPERIMENT=cluster";; two_reads) env="EGEMM_INT8_CLUSTER_SPLIT=0";; esac
  env $env EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192 --policies Int8Slices --calls 5 2>/dev/null \
    | grep -E "split_kernel|maxima|digits_kernel|^Medians" | grep -v sm80_xmma | sed "s/^/round $round $v: /" | tee -a $OUT/timeline.txt
done; done > /dev/null
grep -E "split_kernel|maxima|digits" $OUT/timeline.txt | awk -F'|' '{print $1, $3, $6}'
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*Int8*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" -A3 $OUT/int8_tests.log | head -12
