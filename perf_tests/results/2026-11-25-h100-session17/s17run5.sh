#!/usr/bin/env bash
# Session 17 run 5 (library bb0d260): every GPU check (run_device_checks.sh
# tests: CUDA tests, device resets, Kokkos on CUDA, demo, precision profile);
# the Int8Slices kernel's SASS (IGMMA in the main loop, no local memory);
# the GEMM suite on wide inputs (entries 2^-16..2^16) and at 1024^3 and
# 2048^3; the mma.sync kernels (EGEMM_SM90_KERNEL=0, what other GPUs run) at 8192^3.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "^\[ accuracy \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/accuracy-lines.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log
# SASS of the Int8Slices Hopper kernels: instruction counts and any local-memory access.
cuobjdump --dump-sass lib/libegemm.so.0.1.0 2>/dev/null | awk '/Function :/ {keep = ($0 ~ /tma_wgmma_gemm_kernel/ && $0 ~ /10Int8Slices/);} keep' > /tmp/int8.sass
{ echo "functions: $(grep -c "Function :" /tmp/int8.sass), lines: $(wc -l < /tmp/int8.sass)"; grep -oE "IGMMA[A-Z0-9._]*|HGMMA[A-Z0-9._]*|LDL[A-Z0-9.]*|STL[A-Z0-9.]*" /tmp/int8.sass | sort | uniq -c; } | tee $OUT/int8_sass_counts.txt
t0=$SECONDS
bin/egemm_bench_suite --benchmark_filter='(wide/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(4096x4096x4096|8192x8192x8192))|(uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/(1024x1024x1024|2048x2048x2048))' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out /tmp/rep --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > $OUT/report.log 2>&1; cp /tmp/rep/table.md $OUT/suite_table.md 2>/dev/null; cat $OUT/suite_table.md
EGEMM_SM90_KERNEL=0 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|egemm_EmulatedFP32|cublas_sgemm)/8192x8192x8192' > $OUT/suite_mma_sync.log 2>&1
grep -E "egemm|sgemm" $OUT/suite_mma_sync.log | sed 's/  */ /g' | cut -c1-220
