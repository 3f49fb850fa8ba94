#!/usr/bin/env bash
# Session 11 run 4: the host's time in each piece of the 1024^3 hand-off, warm (experiment
# host_breakdown.cu); then every GPU test on this session's library (run_device_checks.sh tests).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
../exp/host_breakdown | tee $OUT/host-breakdown.md
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "^\[  SKIPPED \]|CappedPersistentGrid" $OUT/checks/egemm_cuda_tests.log | head -8
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
cd $OUT && tar czf run4.tgz checks host-breakdown.md && ls
