#!/usr/bin/env bash
# Session 6 run 4: the path choice inside the split, its arrival before the piece writes: split/path GPU tests,
# A/B against the session's base library (3 rounds), ncu kernel times of both
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
timeout 240 bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda_tests.log 2>&1; echo "cuda tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED|SKIPPED) |FAILED \]|^\[==========\]" $OUT/cuda_tests.log | head -20 | tee -a $S
F='(uniform/(egemm_EmulatedFP32)/(2048x2048x2048|4096x4096x4096|2048x2048x4096|8192x2048x2048|4096x4096x8192)|wide/egemm_EmulatedFP32/(2048x2048x2048|4096x4096x4096))/'
for round in 1 2 3; do
  for lib in new base; do
    L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
    LD_LIBRARY_PATH=$L timeout 150 bin/egemm_bench_suite --benchmark_filter="$F" --benchmark_out=/tmp/s.json --benchmark_out_format=json > /dev/null 2>&1
    python3 - /tmp/s.json $lib $round <<'PY' | tee -a $S
import json,sys
d=json.load(open(sys.argv[1]))
print(sys.argv[2], "r"+sys.argv[3], " ".join(f"{b['name'].split('/')[0][0]}{b['name'].split('/')[2]}={b['real_time']:.4f}" for b in d['benchmarks']))
PY
  done
done
for lib in new base; do
  L=$PWD/lib; [ $lib = base ] && L=$(cd ../baselib && pwd):$PWD/lib
  for shape in 2048x2048x2048 4096x4096x4096; do
    echo "== ncu $shape $lib" | tee -a $S
    LD_LIBRARY_PATH=$L timeout 100 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum -k regex:'split|path_choice' -c 6 --csv bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/$shape/" 2>/dev/null | grep '^"' | awk -F'","' '{print $NF, $5}' | cut -c1-60 | tail -6 | tee -a $S
  done
done
