#!/usr/bin/env bash
# Session 18 run 9 (an experiment): the split reading L2 once, each block
# waiting in place for its row panel with its values in registers
# (EGEMM_INT8_SPLIT_EXPERIMENT_INPLACE, a working-tree hook) against the
# lagged split: the Int8Slices bit tests with it (not the many-streams test:
# waiting in place can deadlock when concurrent kernels hold the slots), the
# split's time on three shapes, two rounds alternating.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
EGEMM_INT8_SPLIT_EXPERIMENT_INPLACE=1 timeout 120 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:-*Concurrent*' > $OUT/int8_tests.log 2>&1
echo "int8 tests (in place): exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" -A3 $OUT/int8_tests.log | head -12
for round in 1 2; do for v in inplace lagged; do
  env=""; [[ $v == inplace ]] && env="EGEMM_INT8_SPLIT_EXPERIMENT_INPLACE=1"
  env $env EGEMM_DEPENDENT_LAUNCH=0 timeout 60 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192,16384x16384x16384 --policies Int8Slices --calls 3 2>/dev/null \
    | grep -E "split_kernel" | awk -F'|' -v r=$round -v v=$v '{print "round", r, v, $3, $6}' | tee -a $OUT/timeline.txt
done; done
