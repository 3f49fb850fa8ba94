#!/usr/bin/env bash
# Session 10 run 9: the whole GEMM suite (every tag and cuBLAS baseline, uniform and wide inputs,
# square and skewed shapes) on the current library, with its figures, for the README's headline;
# SASS of the EmulatedFP32 pair kernel (HGMMA in the main loop, no local memory).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
/usr/local/cuda/bin/cuobjdump --dump-sass lib/libegemm.so.0.1.0 > /tmp/all-sass.txt 2>&1
awk '/Function : /{keep = ($0 ~ /tma_wgmma_gemm_kernel/ && $0 ~ /EmulatedFP32/ && $0 ~ /Li128ELi128ELi3ELi1ELi2ELi2E/)} keep' \
  /tmp/all-sass.txt > /tmp/sass.txt
{ echo "SASS of the EmulatedFP32 128x128x3c2 TMA kernel: $(wc -l < /tmp/sass.txt) lines";
  grep -m1 "Function :" /tmp/sass.txt
  echo "HGMMA: $(grep -c HGMMA /tmp/sass.txt)"; echo "local memory (LDL/STL): $(grep -cE '\bLDL|\bSTL' /tmp/sass.txt)";
  echo "UTMALDG (TMA loads): $(grep -c UTMALDG /tmp/sass.txt)"; echo "UTMASTG (TMA stores): $(grep -c UTMASTG /tmp/sass.txt)";
  grep -m3 HGMMA /tmp/sass.txt; } | tee $OUT/sass-summary.txt
t0=$SECONDS
timeout 520 bin/egemm_bench_suite --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 report.py $OUT/suite.json --out $OUT/report --title "$GPU, 2026-11-24 (session 10, library 871676e)" > $OUT/report.log 2>&1; echo "report rc=$?"
grep -E "^## |egemm_EmulatedFP32 " $OUT/report/table.md | head -60
cd $OUT && tar czf run9.tgz sass-summary.txt suite.json report && ls report
