#!/usr/bin/env bash
# Session 23, run 12 (library at 3b83aaf, built against a Kokkos 4.6.99 + Kokkos Kernels develop with
# CUDA outside the repository: build-kcuda, and build-kcuda-routed with
# -DEGEMM_KOKKOS_GEMM_TPL=NormwiseFP32; binaries stripped): KokkosBlas::gemm on Kokkos::Cuda for every
# tag, and with the stock float gemm routed to NormwiseFP32; the demo at 1024 and 4096.
set -u
cd "$(dirname "$0")"
for d in kcuda routed; do [[ -f $d/libegemm.so.0.1.xz ]] && xz -d $d/libegemm.so.0.1.xz; done
out=${OUT:-out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
LD_LIBRARY_PATH=$PWD/kcuda timeout 120 kcuda/egemm_kokkos_tests --gtest_color=no > "$out/kokkos_tests.log" 2>&1
echo "Kokkos tests on Kokkos::Cuda: exit $?" >> "$out/device.txt"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" "$out/kokkos_tests.log" >> "$out/device.txt"
LD_LIBRARY_PATH=$PWD/routed timeout 120 routed/egemm_kokkos_tests --gtest_color=no > "$out/kokkos_tests_routed.log" 2>&1
echo "Kokkos tests, stock gemm routed to NormwiseFP32: exit $?" >> "$out/device.txt"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED" "$out/kokkos_tests_routed.log" >> "$out/device.txt"
{ LD_LIBRARY_PATH=$PWD/kcuda timeout 60 kcuda/egemm_demo 1024; echo "demo 1024: exit $?";
  LD_LIBRARY_PATH=$PWD/kcuda timeout 60 kcuda/egemm_demo 4096; echo "demo 4096: exit $?"; } > "$out/demo.log" 2>&1
grep -E "exit" "$out/demo.log" >> "$out/device.txt"
cat "$out/device.txt"
