#!/usr/bin/env bash
# Session 21 run 9 (the session's last library, 63d7445's kernels): memcheck over every kernel and
# split (run_device_checks.sh sanitize, the split kernels having changed shape this session); the
# demo with its new NormwiseFP32 row, on Debian's host Kokkos (the raw-pointer run on the GPU) and
# on Kokkos::Cuda (a Kokkos 4.6.99 + Kokkos Kernels built with CUDA outside the repo).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
OUT=$OUT/sanitize SANITIZE_TOOLS=memcheck timeout 300 main/run_device_checks.sh sanitize > /dev/null 2>&1; echo "sanitize (memcheck): exit $?"
cat $OUT/sanitize/summary.txt; grep -E "ERROR SUMMARY" $OUT/sanitize/*.log | head
( export LD_LIBRARY_PATH=$PWD/main/lib; main/bin/egemm_demo 4096; echo "demo (host Kokkos, raw GPU run) 4096: exit $?" ) > $OUT/demo_raw.log 2>&1; tail -14 $OUT/demo_raw.log
( export LD_LIBRARY_PATH=$PWD/kcuda; kcuda/egemm_demo 1024; echo "demo (Kokkos::Cuda) 1024: exit $?"; kcuda/egemm_demo 4096; echo "demo (Kokkos::Cuda) 4096: exit $?" ) > $OUT/demo_kcuda.log 2>&1; cat $OUT/demo_kcuda.log
