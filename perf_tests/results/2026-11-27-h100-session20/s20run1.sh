#!/usr/bin/env bash
# Session 20 run 1 (nvidia-h100-x2, library d6ed518): every GPU check on two GPUs (the multi-device
# tests' first run), then the kernels under compute-sanitizer: memcheck on GPU 0 and racecheck on
# GPU 1 at the same time (run_device_checks.sh sanitize, each tool capped at 300 s).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=index,name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
compute-sanitizer --version | tail -1 | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure|FAILED" -A8 $OUT/checks/egemm_cuda_tests.log | head -40
grep -E "CudaMultiDevice" $OUT/checks/egemm_cuda_tests.log | head
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log $OUT/checks/precision_profile.md
t1=$SECONDS
CUDA_VISIBLE_DEVICES=0 OUT=$OUT/memcheck SANITIZE_TOOLS=memcheck SANITIZE_TIMEOUT_S=300 bash run_device_checks.sh sanitize > /dev/null 2>&1 &
CUDA_VISIBLE_DEVICES=1 OUT=$OUT/racecheck SANITIZE_TOOLS=racecheck SANITIZE_TIMEOUT_S=300 bash run_device_checks.sh sanitize > /dev/null 2>&1 &
wait
echo "sanitizers: $((SECONDS - t1)) s"
for tool in memcheck racecheck; do
  echo "== $tool"; cat $OUT/$tool/summary.txt | tail -n +3
  grep -E "^\[ RUN      \]" $OUT/$tool/sanitize-$tool.log | tail -1
  grep -E "^=========" $OUT/$tool/sanitize-$tool.log | grep -v "ERROR SUMMARY: 0" | sort | uniq -c | sort -rn | head -15
done
echo "elapsed $((SECONDS - t0)) s"
