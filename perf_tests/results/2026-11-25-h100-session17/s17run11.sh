#!/usr/bin/env bash
# Session 17 run 11: stream-K for Int8Slices (int32 partial sums, the fixup
# kernel shared with the FP32 sums): the Int8Slices tests and every stream-K
# test; then Int8Slices with the model's verdict, never and always split
# (EGEMM_SM90_STREAM_K unset / 0 / 1), two rounds, on one board.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*StreamK*:CudaFusedKernel.*' > $OUT/tests.log 2>&1
echo "tests: exit $?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[==========\]|Failure" -A3 $OUT/tests.log | head -20
for round in 1 2; do for sk in model 0 1; do
  if [[ $sk == model ]]; then unset EGEMM_SM90_STREAM_K; else export EGEMM_SM90_STREAM_K=$sk; fi
  bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm)/(4096x4096x4096|8192x8192x8192|4096x4096x8192|16384x4096x4096|2048x2048x2048)' 2>/dev/null \
    | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+" | paste - - | sed "s/^/round $round stream_k=$sk /" | tee -a $OUT/ab.txt
done; done
unset EGEMM_SM90_STREAM_K
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED|^\[==========\]" $OUT/tests.log > $OUT/tests_summary.txt; rm -f $OUT/tests.log
