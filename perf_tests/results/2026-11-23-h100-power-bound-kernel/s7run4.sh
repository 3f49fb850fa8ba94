#!/usr/bin/env bash
# Session 7 run 4: one epilogue for all three kernels (strip_epilogue.cuh): the GPU tests; A/B against the
# previous epilogue (baselib: run 3's library, whose epilogue is 0171e08's) for the mma.sync kernel
# (EGEMM_SM90_KERNEL=0) and the TMA kernel, whole call, 2 rounds alternating; ncu instruction counts of the
# mma.sync kernel at 4096^3; call_overhead with the queued column
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 240 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1; echo "egemm_cuda_tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|SKIPPED" $OUT/cuda-tests.log | tee -a $S
F='uniform/egemm_EmulatedFP32/(2048x2048x2048|4096x4096x4096|8192x8192x8192|8192x2048x2048)/'
for round in 1 2; do
  for lib in base new; do
    L=$PWD/lib; [[ $lib == base ]] && L=$(cd ../baselib && pwd)
    echo "== round $round, $lib, mma.sync (EGEMM_SM90_KERNEL=0)" | tee -a $S
    EGEMM_SM90_KERNEL=0 LD_LIBRARY_PATH=$L timeout 100 bin/egemm_bench_suite --benchmark_filter="$F" 2>&1 | grep -E "uniform/" | awk '{print $1, $2, $3, $7, $10}' | tee -a $S
    echo "== round $round, $lib, TMA kernel" | tee -a $S
    LD_LIBRARY_PATH=$L timeout 100 bin/egemm_bench_suite --benchmark_filter="$F" 2>&1 | grep -E "uniform/" | awk '{print $1, $2, $3, $7, $10}' | tee -a $S
  done
done
for lib in base new; do
  L=$PWD/lib; [[ $lib == base ]] && L=$(cd ../baselib && pwd)
  echo "== ncu mma.sync kernel 4096^3, $lib" | tee -a $S
  EGEMM_SM90_KERNEL=0 LD_LIBRARY_PATH=$L timeout 120 /usr/local/cuda/bin/ncu --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k regex:'fused_gemm_kernel' -c 1 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/4096x4096x4096/" > $OUT/ncu-mma-$lib.txt 2>&1
  grep -E "inst_executed|duration" $OUT/ncu-mma-$lib.txt | tee -a $S
done
echo "== call overhead" | tee -a $S
timeout 60 bin/egemm_call_overhead 1024 2>&1 | tee -a $S
timeout 60 bin/egemm_call_overhead 1024 1024 2048 2>&1 | tee -a $S
