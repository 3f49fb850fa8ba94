#!/usr/bin/env bash
# Session 18 run 2: the Int8Slices split kernels with 16-byte loads (where the
# operand allows) and digits staged in shared memory for 16-byte stores; the
# lagged split against the cluster split and two reads again (tests, kernel
# times, ncu, the suite alternating lagged / cluster).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*Int8*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -12
for v in lagged cluster two_reads; do
  case $v in lagged) env="";; cluster) env="EGEMM_INT8_SPLIT_EXPERIMENT=cluster";; two_reads) env="EGEMM_INT8_CLUSTER_SPLIT=0";; esac
  env $env EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192 --policies Int8Slices --calls 5 2>/dev/null \
    | grep -E "^\| [0-9] \||^Medians|^#" | grep -v sm80_xmma | head -20 | sed "s/^/$v: /" | tee -a $OUT/timeline.txt
done
NCU="ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --launch-count 1"
$NCU -k regex:lagged_split bin/egemm_bench_suite --benchmark_filter='uniform/egemm_Int8Slices/8192x8192x8192' > $OUT/ncu_lagged.txt 2>&1
EGEMM_INT8_SPLIT_EXPERIMENT=cluster $NCU -k regex:cluster_split bin/egemm_bench_suite --benchmark_filter='uniform/egemm_Int8Slices/8192x8192x8192' > $OUT/ncu_cluster.txt 2>&1
grep -E "DRAM Throughput|L2 Cache Throughput|Duration|Achieved Occupancy|Compute \(SM\)" $OUT/ncu_lagged.txt $OUT/ncu_cluster.txt | head -20
for round in 1 2; do for v in lagged cluster; do
  env=""; [[ $v == cluster ]] && env="EGEMM_INT8_SPLIT_EXPERIMENT=cluster"
  env $env bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm)/(4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096|16384x16384x16384)' 2>/dev/null \
    | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+|rel_fro_err=[0-9.e+-]+" | paste - - - | sed "s/^/round $round $v /" | tee -a $OUT/ab.txt
done; done
