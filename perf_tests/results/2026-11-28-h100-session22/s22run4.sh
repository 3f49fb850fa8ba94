#!/usr/bin/env bash
# Session 22 run 4 (library at the session's last code commit, built against a Kokkos 4.6.99 + Kokkos
# Kernels develop with CUDA outside the repository: build-kcuda, and build-kcuda-routed with
# -DEGEMM_KOKKOS_GEMM_TPL=NormwiseFP32; binaries stripped): every CUDA unit test; KokkosBlas::gemm on
# Kokkos::Cuda for every tag, and with the stock float gemm routed to NormwiseFP32 (first since the
# entries rule); the demo at 1024 and 4096; the precision profile. Logs in one archive.
cd "$(dirname "$0")"
here=$PWD
export LD_LIBRARY_PATH=$here/kcuda:${LD_LIBRARY_PATH:-}
logs=/tmp/s22run4; mkdir -p $logs
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS; timeout 200 kcuda/egemm_cuda_tests --gtest_color=no > $logs/cuda_tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $logs/cuda_tests.log | head -12; grep -E "Failure" -A8 $logs/cuda_tests.log | head -30
timeout 120 kcuda/egemm_kokkos_tests --gtest_color=no > $logs/kokkos_tests.log 2>&1; echo "Kokkos tests on Kokkos::Cuda: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $logs/kokkos_tests.log
timeout 120 routed/egemm_kokkos_tests --gtest_color=no > $logs/kokkos_tests_routed.log 2>&1; echo "Kokkos tests, stock gemm routed to NormwiseFP32: exit $?"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED|routed tag" $logs/kokkos_tests_routed.log
{ timeout 60 kcuda/egemm_demo 1024; echo "demo 1024: exit $?"; timeout 60 kcuda/egemm_demo 4096; echo "demo 4096: exit $?"; } > $logs/demo_kcuda.log 2>&1
cp $logs/demo_kcuda.log $OUT/; cat $logs/demo_kcuda.log
t0=$SECONDS; timeout 150 kcuda/egemm_precision_profile 400 > $logs/precision_profile.md 2>&1
echo "precision profile: exit $? in $((SECONDS - t0)) s"; cp $logs/precision_profile.md $OUT/; head -40 $logs/precision_profile.md
tar -C $logs -czf $OUT/logs.tar.gz .
