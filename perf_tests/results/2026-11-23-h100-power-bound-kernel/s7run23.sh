#!/usr/bin/env bash
# Session 7 run 23: where a 2048^3 EmulatedFP32 call's time goes between its kernels (nsys GPU trace)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
NSYS=$(ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1); echo "nsys: $NSYS"
[ -z "$NSYS" ] && exit 0
timeout 200 $NSYS profile -t cuda --cuda-graph-trace=node -o /tmp/call2048 --force-overwrite true bin/egemm_bench_suite --benchmark_filter='uniform/egemm_EmulatedFP32/2048x2048x2048/' > /tmp/nsys.log 2>&1; echo "nsys rc=$?"
timeout 120 $NSYS stats -r cuda_gpu_trace -f csv -o /tmp/trace /tmp/call2048.nsys-rep > /dev/null 2>&1; echo "stats rc=$?"
ls /tmp/trace* 2>/dev/null; cp /tmp/trace*.csv $OUT/ 2>/dev/null
python3 - <<'PY'
import csv, glob
f = sorted(glob.glob('/tmp/trace*.csv'))
if not f: raise SystemExit('no trace')
rows = list(csv.DictReader(open(f[0])))
keys = rows[0].keys(); print(list(keys)[:12])
start = [k for k in keys if k.startswith('Start')][0]; dur = [k for k in keys if k.startswith('Duration')][0]
name = 'Name'
ev = sorted(((int(r[start]), int(r[dur]), r[name][:60]) for r in rows), key=lambda x: x[0])
# the last 12 events: a call and its gaps
tail = ev[-40:]
prev_end = None
for s, d, n in tail:
    gap = '' if prev_end is None else f'gap {(s - prev_end)/1000:.1f} us'
    print(f'{d/1000:8.1f} us  {gap:>14}  {n}')
    prev_end = s + d
PY
