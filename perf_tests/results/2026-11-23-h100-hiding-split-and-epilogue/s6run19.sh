#!/usr/bin/env bash
# Session 6 run 19: the split without per-value branches (branch-free statistics; all-finite rows skip the
# per-quad Inf/NaN test): GPU tests; ncu split kernel against 043c3f4's library (../prevlib); whole call A/B, 2 rounds
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 200 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1; echo "cuda tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED \]|^\[==========\]" $OUT/cuda_tests.log | head -20 | tee -a $S
for lib in new prev; do
  L=$PWD/lib; [ $lib = prev ] && L=$(cd ../prevlib && pwd):$PWD/lib
  for shape in 4096x4096x4096 16384x4096x4096; do
    echo "== ncu $shape $lib" | tee -a $S
    LD_LIBRARY_PATH=$L timeout 100 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum -k regex:'split_kernel' -c 2 --csv bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/$shape/" 2>/dev/null | grep '^"' | awk -F'","' '{print $(NF-2), $NF}' | tail -6 | tee -a $S
  done
done
F='(uniform/(egemm_EmulatedFP32|cublas_sgemm)/(2048x2048x2048|4096x4096x4096|4096x4096x8192|16384x4096x4096|8192x8192x8192)|wide/egemm_EmulatedFP32/(4096x4096x4096))/'
for round in 1 2; do for lib in new prev; do
  L=$PWD/lib; [ $lib = prev ] && L=$(cd ../prevlib && pwd):$PWD/lib
  LD_LIBRARY_PATH=$L timeout 150 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=/tmp/s.json --benchmark_out_format=json > /dev/null 2>&1
  python3 - /tmp/s.json $lib $round <<'PY' | tee -a $S
import json,sys
d=json.load(open(sys.argv[1]))
t={}
for b in d['benchmarks']:
    n=b['name'].split('/'); t.setdefault((n[0],n[2]),{})[n[1]]=(b['real_time'],b.get('rel_fro_err',0))
out=[]
for (kind,k),v in t.items():
    e=v.get('egemm_EmulatedFP32'); s=v.get('cublas_sgemm')
    out.append(f"{kind[0]}{k}={e[0]:.4f}" + (f"({s[0]/e[0]:.2f}x)" if s else "") + f"[{e[1]:.3g}]")
print(sys.argv[2], "r"+sys.argv[3], " ".join(out))
PY
done; done
