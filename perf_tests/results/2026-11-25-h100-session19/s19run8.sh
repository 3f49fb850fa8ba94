#!/usr/bin/env bash
# Session 19 run 8 (library 9548b9e: the review's one floor field; the panel rule on whole panels, k = 0
# guarded): every GPU check; the NormwiseFP32, Int8Slices and debug-log tests
# three times, with stream-K forced and without.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure|FAILED" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/demo.log $OUT/checks/precision_profile.md
for sk in 1 0; do
  EGEMM_SM90_STREAM_K=$sk bin/egemm_cuda_tests --gtest_color=no --gtest_repeat=3 --gtest_filter='CudaNormwiseFP32.*:CudaInt8Slices.*:CudaDebugLog.*:CudaGemm/NormwiseFP32.*' > $OUT/repeat.log 2>&1
  echo "EGEMM_SM90_STREAM_K=$sk, three times: exit $?" | tee -a $OUT/repeat.txt
  grep -E "^\[  (PASSED|FAILED) |Failure" $OUT/repeat.log | sort | uniq -c | tee -a $OUT/repeat.txt
  grep -E "Failure" -A6 $OUT/repeat.log | head -20 | tee -a $OUT/repeat.txt
done
rm -f $OUT/repeat.log
echo "elapsed $((SECONDS - t0)) s"
