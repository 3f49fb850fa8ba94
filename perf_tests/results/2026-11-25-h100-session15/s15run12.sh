#!/usr/bin/env bash
# Session 15 run 12: the final library (with EGEMM_FAULT_LAUNCH) through run_device_checks.sh tests:
# every CUDA test, the reset tests, the Kokkos tests on CUDA, the demo, the precision profile.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -30
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log
