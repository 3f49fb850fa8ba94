#!/usr/bin/env bash
# Session 19 run 2 (library c9eb224): every GPU check on the
# session's NormwiseFP32 library; the suite for NormwiseFP32, Int8Slices,
# EmulatedFP32, SGEMM and the four-call emulation at 2048^3 to 16384^3 and on
# the skewed shapes; the GPU spans of NormwiseFP32 and Int8Slices side by
# side (the route's cost) at 4096^3 and 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure|FAILED" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "CudaNormwiseFP32|CudaDebugLog" $OUT/checks/egemm_cuda_tests.log | grep -E "OK|FAILED" | tee $OUT/checks/normwise_tests.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/demo.log $OUT/checks/precision_profile.md
bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_NormwiseFP32|egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(2048x2048x2048|8192x8192x8192|16384x16384x16384|8192x8192x16384|32768x8192x8192)' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? (elapsed $((SECONDS - t0)) s)"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md; grep -E "^## |Normwise|Int8|Emulated|sgemm |tc_emul" $OUT/suite_table.md
rm -f $OUT/suite.log
for s in 4096x4096x4096 8192x8192x8192; do
  bin/egemm_call_timeline --shapes $s --policies Int8Slices,NormwiseFP32,Int8Slices,NormwiseFP32 --calls 9 2>&1 | grep -E "^###|^Medians" >> $OUT/spans.txt
done
cat $OUT/spans.txt
echo "elapsed $((SECONDS - t0)) s"
