#!/usr/bin/env bash
# Session 6 run 13: the Hopper epilogue without a per-entry branch (a warp-uniform test per batch for exponents
# beyond 2^+-126): GPU tests; A/B against the session's base library (same binaries), 3 rounds; sweep shapes; ncu counts
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
timeout 200 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1; echo "cuda tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED \]|^\[==========\]" $OUT/cuda_tests.log | head -20 | tee -a $S
F='uniform/(egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|8192x8192x8192|2048x2048x4096|4096x4096x8192|8192x2048x2048|16384x4096x4096)/'
for round in 1 2 3; do
  for lib in new base; do
    L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
    LD_LIBRARY_PATH=$L timeout 150 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=/tmp/s.json --benchmark_out_format=json > /dev/null 2>&1
    python3 - /tmp/s.json $lib $round <<'PY' | tee -a $S
import json,sys
d=json.load(open(sys.argv[1]))
t={}
for b in d['benchmarks']:
    n=b['name'].split('/'); t.setdefault(n[2],{})[n[1]]=(b['real_time'],b.get('rel_fro_err',0))
print(sys.argv[2], "r"+sys.argv[3], " ".join(f"{k}={v['egemm_EmulatedFP32'][0]:.4f}({v['cublas_sgemm'][0]/v['egemm_EmulatedFP32'][0]:.2f}x,{v['egemm_EmulatedFP32'][1]:.3g})" for k,v in t.items() if 'egemm_EmulatedFP32' in v and 'cublas_sgemm' in v))
PY
  done
done
for lib in new base; do
  L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
  echo "== sweep $lib" | tee -a $S
  LD_LIBRARY_PATH=$L timeout 150 bin/egemm_sm90_tile_sweep --shapes 8192x8192x64,4096x4096x4096,8192x8192x8192 > $OUT/sweep-$lib.md 2> /dev/null
  grep -E "^\| (128x128x3 |128x128x3c2|64x128x4 )|^Model" $OUT/sweep-$lib.md | cut -c1-100 | tee -a $S
done
