#!/usr/bin/env bash
# Session 6 run 12: where the consumers' epilogue stalls (ncu source counters, SASS level) at 8192 x 8192 x 64,
# where a tile is its epilogue; 128x128x3 (the sweep's first candidate), the library named by the run
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 400 /usr/local/cuda/bin/ncu --section WarpStateStats --section SourceCounters -k regex:tma_wgmma_gemm_kernel -c 1 \
  --page source --csv --print-source sass bin/egemm_sm90_tile_sweep --shapes 8192x8192x64 > $OUT/source.csv 2> $OUT/ncu.err
echo "ncu rc=$? lines $(wc -l < $OUT/source.csv)" | tee -a $S
python3 - $OUT/source.csv <<'PY' | tee -a $S
import csv,sys
rows=list(csv.reader(open(sys.argv[1])))
hi=[i for i,r in enumerate(rows) if any('Source' == c or 'Address' in c for c in r)]
h=rows[hi[0]] if hi else rows[0]
print("columns:", h[:12])
def col(name):
    for i,c in enumerate(h):
        if c.startswith(name): return i
    return None
si=col('Warp Stall Sampling (All Samples)'); so=col('Source'); ad=col('Address')
body=[r for r in rows[(hi[0] if hi else 0)+1:] if len(r)==len(h)]
def num(x):
    try: return float(x.replace(',',''))
    except: return 0.0
tot=sum(num(r[si]) for r in body) if si is not None else 0
print("total samples", tot, "instructions", len(body))
top=sorted(body,key=lambda r:-num(r[si]))[:45]
for r in top: print(f"{num(r[si])/tot*100:5.1f}% {r[ad] if ad is not None else ''} {r[so][:90]}")
PY
