#!/usr/bin/env bash
# Session 21 run 16 (run 14's library, the session's last): every CUDA unit test.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
timeout 170 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/cuda_tests.log | head -12
grep -E "Failure" -A8 $OUT/cuda_tests.log | head -30
