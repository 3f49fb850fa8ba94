#!/usr/bin/env bash
# Session 20 run 3 (nvidia-h100-x1, library 48b73c2): KokkosBlas::gemm on Kokkos::Cuda after the
# Kokkos every-layout test became typed over all_policies (NormwiseFP32 now among them); the same
# tests with the stock float gemm routed to NormwiseFP32 (EGEMM_KOKKOS_GEMM_TPL=NormwiseFP32); the
# demo's new comparison with both FP32 gemms at 1024 (EmulatedFP32 hands off) and 4096 (tensor cores).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/kcuda:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
kcuda/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests.log 2>&1; echo "Kokkos tests on Kokkos::Cuda: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED|NormwiseFP32" $OUT/kokkos_tests.log
routed/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests_routed.log 2>&1; echo "Kokkos tests, stock gemm routed to NormwiseFP32: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED|routed tag" $OUT/kokkos_tests_routed.log
{ kcuda/egemm_demo 1024; echo "demo 1024: exit $?"; kcuda/egemm_demo 4096; echo "demo 4096: exit $?"; } 2>&1 | tee $OUT/demo.log
