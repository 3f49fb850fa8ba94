#!/usr/bin/env bash
# Session 6 run 7: the staged epilogue, drain with column exponents in shared memory, 56 producer registers, beta = 0 only (consumers leave C's entries in shared memory, the producer warpgroup's idle
# warps write C): GPU tests, A/B against EGEMM_SM90_EPILOGUE=registers in the same build, sweep shapes, ncu
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
timeout 200 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1; echo "cuda tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED \]|^\[==========\]" $OUT/cuda_tests.log | head -20 | tee -a $S
timeout 100 bin/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos_tests.log 2>&1; echo "kokkos tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED) |FAILED \]" $OUT/kokkos_tests.log | tee -a $S
F='uniform/(egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|8192x8192x8192|2048x2048x4096|4096x4096x8192|8192x2048x2048|16384x4096x4096)/'
for round in 1 2; do
  for mode in staged registers; do
    E=; [ $mode = registers ] && E=registers
    EGEMM_SM90_EPILOGUE=$E timeout 150 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=$OUT/suite-$mode-$round.json --benchmark_out_format=json > /dev/null 2>&1
    python3 - $OUT/suite-$mode-$round.json $mode $round <<'PY' | tee -a $S
import json,sys
d=json.load(open(sys.argv[1]))
t={}
for b in d['benchmarks']:
    n=b['name'].split('/'); t.setdefault(n[2],{})[n[1]]=(b['real_time'],b.get('rel_fro_err',0))
for shape,v in t.items():
    e=v.get('egemm_EmulatedFP32'); s=v.get('cublas_sgemm')
    if e and s: print(f"{sys.argv[2]:9s} r{sys.argv[3]} {shape:16s} {e[0]:8.4f} ms  {s[0]/e[0]:5.2f}x SGEMM  err {e[1]:.3g}")
PY
  done
done
for mode in staged registers; do
  E=; [ $mode = registers ] && E=registers
  echo "== sweep $mode" | tee -a $S
  EGEMM_SM90_EPILOGUE=$E timeout 150 bin/egemm_sm90_tile_sweep --shapes 8192x8192x64,4096x4096x4096 --csv $OUT/sweep-$mode.csv > $OUT/sweep-$mode.md 2> /dev/null; echo "sweep rc=$?" | tee -a $S
  grep -E "^\| |^Model" $OUT/sweep-$mode.md | cut -c1-110 | tee -a $S
done
