#!/usr/bin/env bash
# Session 17 run 9: the cluster split (slices of at most 4 panels, clusters
# of up to 16 blocks: k up to 8192) against the two-read split on one board,
# alternating, two rounds each (EGEMM_INT8_CLUSTER_SPLIT=1 / 0), on the shapes
# whose k it takes; each kernel's time at 8192^3 both ways.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" -A3 $OUT/int8_tests.log | head -10
for round in 1 2; do for split in 1 0; do
  EGEMM_INT8_CLUSTER_SPLIT=$split bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm)/(4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096)' 2>/dev/null \
    | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+" | paste - - | sed "s/^/round $round split=$split /" | tee -a $OUT/ab.txt
done; done
for split in 1 0; do
  EGEMM_INT8_CLUSTER_SPLIT=$split EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192 --policies Int8Slices --calls 5 2>/dev/null | grep -E "^\| [0-9] \||^Medians" | grep -v sm80_xmma | head -6 | tee -a $OUT/timeline.txt
done
