#!/usr/bin/env bash
# Session 17 run 6: Int8Slices' one-read split (a cluster of blocks holds a
# row panel's whole depth in shared memory) against the two-read split
# (EGEMM_INT8_CLUSTER_SPLIT=0): the Int8Slices and launch-failure GPU tests,
# each kernel's time at 8192^3, and the suite at 4096^3 and 8192^3 both ways.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:CudaLaunchFailure/Int8Slices*:CudaSpecial*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $? in $((SECONDS - t0)) s"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure|launches in this call" -A3 $OUT/int8_tests.log | head -30
for split in 1 0; do
  EGEMM_INT8_CLUSTER_SPLIT=$split EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x4096 --policies Int8Slices --calls 5 > $OUT/timeline_cluster$split.md 2> $OUT/timeline_cluster$split.log
  echo "timeline (EGEMM_INT8_CLUSTER_SPLIT=$split): exit $?"; grep -E "^\| [0-9] \||^Medians" $OUT/timeline_cluster$split.md | head -12
  EGEMM_INT8_CLUSTER_SPLIT=$split bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096)' \
    --benchmark_out=$OUT/suite_cluster$split.json --benchmark_out_format=json > $OUT/suite_cluster$split.log 2>&1
  echo "suite (EGEMM_INT8_CLUSTER_SPLIT=$split): exit $?"
  python3 report.py $OUT/suite_cluster$split.json --out /tmp/rep$split --no-plots --title "EGEMM_INT8_CLUSTER_SPLIT=$split" > /dev/null 2>&1; cp /tmp/rep$split/table.md $OUT/suite_table_cluster$split.md; grep -E "^## |Int8|sgemm|tc_emul" $OUT/suite_table_cluster$split.md
done
