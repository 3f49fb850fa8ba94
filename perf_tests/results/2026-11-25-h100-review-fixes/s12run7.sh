#!/usr/bin/env bash
# Session 12 run 7: the final library (the probe kernels moved into code_feature_probes.cuh, shared
# with the precision profiler, whose wgmma check now uses them): every GPU test, Kokkos on CUDA,
# demo, precision profile (does it still find wgmma?).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A6 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/cuda-tests-summary.txt
grep -E "loaded code:|EmulatedFP32 fp16_scaled runs on" $OUT/checks/egemm_cuda_tests.log
grep -E "^## |^### |wgmma" $OUT/checks/precision_profile.md | head -20
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log
