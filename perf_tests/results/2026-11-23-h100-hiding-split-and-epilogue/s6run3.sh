#!/usr/bin/env bash
# Session 6 run 3: the path choice inside the split (no launch of its own): GPU tests, A/B/C against the
# session's base library and against a build that also skips the TF32 path's no-op gemm launch (uniform only)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
timeout 240 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1; echo "cuda tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED \]|^\[==========\]" $OUT/cuda_tests.log | head -20 | tee -a $S
timeout 120 bin/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests.log 2>&1; echo "kokkos tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED) |FAILED \]" $OUT/kokkos_tests.log | tee -a $S
F='(uniform/(egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|8192x8192x8192|2048x2048x4096|4096x4096x8192|8192x2048x2048|16384x4096x4096)|wide/egemm_EmulatedFP32/(2048x2048x2048|4096x4096x4096))/'
for round in 1 2; do
  for lib in new base exp; do
    L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib; [ $lib = exp ] && L=$(cd ../explib && pwd):$PWD/lib
    X=; [ $lib = exp ] && X=1
    EGEMM_EXP_SKIP_TF32=$X LD_LIBRARY_PATH=$L timeout 150 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=/tmp/s.json --benchmark_out_format=json > /dev/null 2>&1
    python3 - /tmp/s.json $lib $round <<'PY' | tee -a $S
import json,sys
d=json.load(open(sys.argv[1]))
for b in d['benchmarks']:
    n=b['name'].split('/')
    print(f"{sys.argv[2]:4s} r{sys.argv[3]} {n[0]:8s} {n[1]:20s} {n[2]:16s} {b['real_time']:9.4f} {b.get('time_unit','')} err {b.get('rel_fro_err',0):.3g}")
PY
  done
done
echo "== ncu 2048^3 new" | tee -a $S
timeout 100 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum -k regex:'split|resplit|path_choice|tma|fixup' -c 8 --csv bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/2048x2048x2048/" 2>/dev/null | grep '^"' | awk -F'","' '{print $NF, $5}' | cut -c1-110 | tee -a $S
