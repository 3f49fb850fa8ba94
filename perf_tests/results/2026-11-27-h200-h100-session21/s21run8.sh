#!/usr/bin/env bash
# Session 21 run 8 (library at the session's docs commit, built against a Kokkos 4.6.99 + Kokkos
# Kernels develop with CUDA, outside the repo): KokkosBlas::gemm on Kokkos::Cuda for every tag; the
# same tests with the stock float gemm routed to NormwiseFP32; the demo at 1024 and 4096 (4096^3 is
# now on NormwiseFP32's route).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD/kcuda:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
kcuda/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests.log 2>&1; echo "Kokkos tests on Kokkos::Cuda: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $OUT/kokkos_tests.log
routed/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests_routed.log 2>&1; echo "Kokkos tests, stock gemm routed to NormwiseFP32: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED|routed tag" $OUT/kokkos_tests_routed.log
{ kcuda/egemm_demo 1024; echo "demo 1024: exit $?"; kcuda/egemm_demo 4096; echo "demo 4096: exit $?"; } 2>&1 | tee $OUT/demo.log
