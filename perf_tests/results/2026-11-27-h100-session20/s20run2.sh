#!/usr/bin/env bash
# Session 20 run 2 (nvidia-h100-x2, library d6ed518, as run 1): the kernels under the compute-sanitizer
# tools run 1 left undone, the two GPUs at once. GPU 0: racecheck on the tests its 300 s did not reach,
# then initcheck. GPU 1: KokkosBlas::gemm on Kokkos::Cuda (the Kokkos tests and the demo, built
# against a Kokkos 4.6.99 with CUDA), then synccheck. Each tool capped so the call ends in ~330 s.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=index,name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
(
  export CUDA_VISIBLE_DEVICES=0
  OUT=$OUT/racecheck SANITIZE_TOOLS=racecheck SANITIZE_TIMEOUT_S=110 \
    SANITIZE_FILTER='CudaFusedKernel.StagedAndRegisterEpiloguesWriteTheSameBits:CudaFusedKernel.UnknownHopperTileIsRefusedAndCStaysUntouched:CudaStreamSemantics/*:CudaWorkspace.*' \
    bash run_device_checks.sh sanitize > /dev/null 2>&1
  OUT=$OUT/initcheck SANITIZE_TOOLS=initcheck SANITIZE_TIMEOUT_S=$((320 - (SECONDS - t0))) bash run_device_checks.sh sanitize > /dev/null 2>&1
) &
(
  export CUDA_VISIBLE_DEVICES=1
  { ../kcuda/egemm_kokkos_tests --gtest_color=no; echo "kokkos tests: exit $?"; ../kcuda/egemm_demo 1024; echo "demo: exit $?"; } > $OUT/kokkos_cuda.log 2>&1
  OUT=$OUT/synccheck SANITIZE_TOOLS=synccheck SANITIZE_TIMEOUT_S=300 bash run_device_checks.sh sanitize > /dev/null 2>&1
) &
wait
echo "elapsed $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED|^\[  FAILED|^\[  SKIPPED|exit [0-9]|Kokkos::|default execution space" $OUT/kokkos_cuda.log | head -20
for tool in racecheck synccheck initcheck; do
  echo "== $tool"; tail -n +3 $OUT/$tool/summary.txt
  grep -E "^\[ RUN      \]" $OUT/$tool/sanitize-$tool.log | tail -1
  grep -E "^=========" $OUT/$tool/sanitize-$tool.log | grep -v "ERROR SUMMARY: 0" | sort | uniq -c | sort -rn | head -12
done
