#!/usr/bin/env bash
# Session 9 run 7 (the session's final library: StagedC through alpha_beta): every GPU test, Kokkos
# on CUDA, demo, precision profile; the kernel/gemm/special-value suites again with
# EGEMM_SM90_C_STORE=registers.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|differs" $OUT/checks/egemm_cuda_tests.log | head -20
EGEMM_SM90_C_STORE=registers bin/egemm_cuda_tests --gtest_filter='CudaFusedKernel*:CudaGemm*:CudaSpecialValues*:CudaEmulatedFP32*' > $OUT/registers-tests.log 2>&1
echo "EGEMM_SM90_C_STORE=registers egemm_cuda_tests (subset): exit $?"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/registers-tests.log
cd $OUT && tar czf run7.tgz checks/summary.txt checks/precision_profile.md registers-tests.log && rm -f registers-tests.log
