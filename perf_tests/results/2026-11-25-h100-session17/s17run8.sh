#!/usr/bin/env bash
# Session 17 run 8: the cluster split with clusters of up to 16 blocks
# (non-portable) and short slices, several blocks an SM; each kernel's time at
# 8192^3 and 4096^3 for at most 16, 11 and 8 blocks a cluster (an experiment
# switch of this build only, EGEMM_EXPERIMENT_CLUSTER_BLOCKS), then the
# Int8Slices tests and the suite with 16.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for most in 16 11 8; do
  EGEMM_EXPERIMENT_CLUSTER_BLOCKS=$most EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x4096 --policies Int8Slices --calls 5 > $OUT/timeline_most$most.md 2> /dev/null
  echo "timeline (at most $most blocks a cluster): exit $?"; grep -E "^\| [0-9] \||^Medians" $OUT/timeline_most$most.md | grep -v sm80_xmma | head -12
done
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:CudaLaunchFailure/Int8Slices*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A3 $OUT/int8_tests.log | head -20
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $?"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md; grep -E "^## |Int8|sgemm|tc_emul" $OUT/suite_table.md
rm -f $OUT/suite.log
