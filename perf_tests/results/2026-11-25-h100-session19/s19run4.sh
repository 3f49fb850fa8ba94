#!/usr/bin/env bash
# Session 19 run 4 (library 2a9b5b6: NormwiseFP32 below
# m n k = 2^35 runs EmulatedFP32): every GPU check; the out-of-memory test
# (its poison fixed) ten times; the suite at 2048^3, 3072^3 and 4096^3 as a
# user gets it and with EGEMM_SMALL_GEMM_FALLBACK=0 (NormwiseFP32's route at
# every size), to place the size below which the digits do not pay.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure|FAILED" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/demo.log $OUT/checks/precision_profile.md
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaOutOfMemory.*' --gtest_repeat=10 > $OUT/oom.log 2>&1
echo "out-of-memory tests x10: exit $?" | tee $OUT/oom.txt; grep -cE "^\[       OK \]" $OUT/oom.log | sed 's/^/OK lines: /' | tee -a $OUT/oom.txt; grep -E "Failure|did not write" $OUT/oom.log | head -5 | tee -a $OUT/oom.txt; rm -f $OUT/oom.log
F='uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|3072x3072x3072|4096x4096x4096)'
bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=$OUT/suite_default.json --benchmark_out_format=json > /dev/null 2>&1
echo "suite (default): exit $?"
EGEMM_SMALL_GEMM_FALLBACK=0 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=$OUT/suite_no_handoff.json --benchmark_out_format=json > /dev/null 2>&1
echo "suite (EGEMM_SMALL_GEMM_FALLBACK=0): exit $?"
for v in default no_handoff; do
  python3 report.py $OUT/suite_$v.json --out /tmp/rep_$v --no-plots --title "$v" > /dev/null 2>&1; cp /tmp/rep_$v/table.md $OUT/suite_${v}_table.md
  echo "== $v"; grep -E "^## |Normwise|Int8|Emulated|sgemm " $OUT/suite_${v}_table.md
done
echo "elapsed $((SECONDS - t0)) s"
