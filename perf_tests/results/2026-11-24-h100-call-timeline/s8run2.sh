#!/usr/bin/env bash
# Session 8 run 2 (the zeroing kernel + batched stream-K fixup): every GPU test; the call
# timeline at four shapes, dependent and plain launches; the suite's EmulatedFP32, SGEMM and
# four-call emulation at 2048^3, 4096^3, 8192^3 (uniform).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
rm -f $OUT/checks/precision_profile.md $OUT/checks/egemm_cuda_tests.log $OUT/checks/demo.log $OUT/checks/egemm_kokkos_tests.log
TIMELINE_SHAPES=2048x2048x2048,4096x4096x4096,8192x8192x8192,16384x4096x4096 OUT=$OUT/timeline \
  bash run_device_checks.sh timeline > /dev/null 2>&1
grep -v "^###\|^Medians" $OUT/timeline/summary.txt
rm -f $OUT/timeline/*.log $OUT/timeline/summary.txt
t0=$SECONDS
timeout 240 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(2048x2048x2048|4096x4096x4096|8192x8192x8192)/' \
  > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"; grep -E "uniform/" $OUT/suite.log | sed 's/ \+/ /g' | head -20
