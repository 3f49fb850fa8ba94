#!/usr/bin/env bash
# Session 7 run 9 (commit dad886f, final library): run_device_checks.sh tests; SASS of the Hopper kernel;
# the whole suite with its figures
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
export LD_LIBRARY_PATH=$PWD/lib
/usr/local/cuda/bin/cuobjdump --dump-sass --function '_ZN5egemm4cuda6hopper21tma_wgmma_gemm_kernelINS_12EmulatedFP32ENS1_8Sm90TileILi2ELi128ELi128ELi3ELi1ELi2ELi2EEEEEv14CUtensorMap_stS6_S6_S6_NS0_15FusedGemmParamsENS1_11StreamKArgsE' lib/libegemm.so.0.1.0 > /tmp/sass.txt 2>&1
{ echo "SASS of the EmulatedFP32 128x128x3c2 TMA kernel: $(wc -l < /tmp/sass.txt) lines";
  echo "HGMMA: $(grep -c HGMMA /tmp/sass.txt)"; echo "local memory (LDL/STL): $(grep -cE '\bLDL|\bSTL' /tmp/sass.txt)";
  echo "UTMALDG (TMA loads): $(grep -c UTMALDG /tmp/sass.txt)"; grep -m3 HGMMA /tmp/sass.txt; } | tee $OUT/sass-summary.txt
t0=$SECONDS
timeout 300 bin/egemm_bench_suite --benchmark_out=$OUT/suite.json --benchmark_out_format=json > /tmp/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
python3 report.py $OUT/suite.json --out $OUT/report --title "$GPU, 2026-11-23 (session 7, final code dad886f)" > /dev/null 2>&1; echo "report rc=$?"
rm -f $OUT/checks/precision_profile.md $OUT/checks/egemm_cuda_tests.log $OUT/report/fig7_error.png $OUT/report/fig8_square.png
ls -R $OUT | head -30
