#!/usr/bin/env bash
# Session 18 run 8: every split kernel reading 16-byte quads where the operand
# allows (load_row_values; EmulatedFP32's guess now before the panel's loads,
# which kept its kernel at 48 registers without spilling) against 0277fe3
# (lib_old): all CUDA tests on the new library, the EmulatedFP32 split's time
# on the timeline and the suite, alternating, two rounds.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]|Failure" -A2 $OUT/cuda_tests.log | head -20
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda_tests.log > $OUT/cuda_tests_summary.txt; rm -f $OUT/cuda_tests.log
for round in 1 2; do for v in quads old; do
  lib=$PWD/lib; [[ $v == old ]] && lib=$PWD/lib_old
  LD_LIBRARY_PATH=$lib:$PWD/lib EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 4096x4096x4096,8192x8192x8192 --policies EmulatedFP32 --calls 5 2>/dev/null \
    | grep -E "split_kernel|^###" | grep -v cuBLAS | awk -F'|' -v r=$round -v v=$v '{print "round", r, v, $1, $3, $6}' | tee -a $OUT/timeline.txt
done; done
for round in 1 2; do for v in quads old; do
  lib=$PWD/lib; [[ $v == old ]] && lib=$PWD/lib_old
  LD_LIBRARY_PATH=$lib:$PWD/lib bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm)/(4096x4096x4096|8192x8192x8192|4096x4096x8192)' 2>/dev/null \
    | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+" | paste - - | sed "s/^/round $round $v /" | tee -a $OUT/ab.txt
done; done
