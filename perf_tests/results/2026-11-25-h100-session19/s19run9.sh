#!/usr/bin/env bash
# Session 19 run 9 (library 9548b9e, the NormwiseFP32 GPU test setting its spread value to 1024):
# the NormwiseFP32 tests five times with stream-K forced, five times without.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for sk in 1 0; do
  EGEMM_SM90_STREAM_K=$sk bin/egemm_cuda_tests --gtest_color=no --gtest_repeat=5 --gtest_filter='CudaNormwiseFP32.*' > $OUT/repeat.log 2>&1
  echo "EGEMM_SM90_STREAM_K=$sk, five times: exit $?" | tee -a $OUT/repeat.txt
  grep -E "^\[  (PASSED|FAILED) |Failure" $OUT/repeat.log | sort | uniq -c | tee -a $OUT/repeat.txt
done
rm -f $OUT/repeat.log
