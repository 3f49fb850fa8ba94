#!/usr/bin/env bash
# Session 18 run 4: the digits by byte permutes of N + 0x808080 (about 3
# instructions a value, ~20 before) in every Int8Slices split kernel: the
# Int8Slices and split tests, each split kernel's time (lagged with lags 128
# and 512, cluster, two reads; two rounds), ncu's view of the lagged and
# two-read kernels at 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*Int8*:CudaSplit*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" -A3 $OUT/int8_tests.log | head -12
for round in 1 2; do
for v in lag128 lag512 cluster two_reads; do
  case $v in lag*) env="EGEMM_INT8_SPLIT_EXPERIMENT_LAG=${v#lag}";; cluster) env="EGEMM_INT8_SPLIT_EXPERIMENT=cluster";; two_reads) env="EGEMM_INT8_CLUSTER_SPLIT=0";; esac
  env $env EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192 --policies Int8Slices --calls 5 2>/dev/null \
    | grep -E "split_kernel|maxima|digits_kernel|^Medians" | grep -v sm80_xmma | sed "s/^/round $round $v: /" | tee -a $OUT/timeline.txt
done; done > /dev/null
grep -E "split_kernel|maxima|digits" $OUT/timeline.txt | awk -F'|' '{print $1, $3, $6}'
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis --launch-count 1"
$NCU -k regex:lagged_split bin/egemm_bench_suite --benchmark_filter='uniform/egemm_Int8Slices/8192x8192x8192' > $OUT/ncu_lagged.txt 2>&1
EGEMM_INT8_CLUSTER_SPLIT=0 $NCU --launch-count 2 -k regex:'row_maxima|digits_kernel' bin/egemm_bench_suite --benchmark_filter='uniform/egemm_Int8Slices/8192x8192x8192' > $OUT/ncu_two_reads.txt 2>&1
grep -E "^  [a-z_:<>(). ]*kernel|DRAM Throughput|L2 Cache Throughput|Duration|Achieved Occupancy|Compute \(SM\)|Issue Slots Busy" $OUT/ncu_lagged.txt $OUT/ncu_two_reads.txt | cut -c1-150
