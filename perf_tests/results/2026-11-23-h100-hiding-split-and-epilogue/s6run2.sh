#!/usr/bin/env bash
# Session 6 run 2: where the skewed shapes' time goes (ncu: every kernel of one EmulatedFP32 call)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,driver_version --format=csv,noheader; date -u; } | tee -a $S
ls /usr/local/cuda/bin | grep -i nsys | tee -a $S
for shape in 16384x4096x4096 8192x2048x2048 4096x4096x4096; do
  echo "== ncu $shape" | tee -a $S
  timeout 150 /usr/local/cuda/bin/ncu --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed -c 40 --csv bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/$shape/" 2>/dev/null | grep '^"' > $OUT/ncu-$shape.csv
  python3 - $OUT/ncu-$shape.csv <<'PY' | tee -a $S
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
h=rows[0]; ki=h.index("Kernel Name"); mi=h.index("Metric Name"); vi=h.index("Metric Value"); ii=h.index("ID")
seen={}
for r in rows[1:]:
    if r[mi].startswith("gpu__time"): seen.setdefault(r[ii],[r[ki][:70],"",""])[1]=r[vi]
    else: seen.setdefault(r[ii],[r[ki][:70],"",""])[2]=r[vi]
for i,(k,t,d) in sorted(seen.items(), key=lambda x:int(x[0])): print(f"{i:>3} {k:70s} {t:>12} ns  dram {d}%")
PY
done
