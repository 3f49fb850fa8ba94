#!/usr/bin/env bash
# Session 7 run 3 (experiment: clusters of four m-tiles sharing op(B), candidate 128x128x3c4):
# its GPU tests, the tile sweep, ncu of c2 and c4 at 8192^3 (clock, L2, tensor pipe)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u; } | tee -a $S
timeout 200 bin/egemm_cuda_tests --gtest_filter='CudaFusedKernel.*' > $OUT/tests.log 2>&1; echo "tests rc=$?" | tee -a $S
grep -E "^\[  (PASSED|FAILED) |^\[==========\]" $OUT/tests.log | tee -a $S
timeout 300 bin/egemm_sm90_tile_sweep --shapes 8192x8192x8192,16384x4096x4096,4096x4096x4096 --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$?" | tee -a $S; cat $OUT/sweep.md | tee -a $S
for t in 128x128x3c2 128x128x3c4; do
  echo "== ncu $t" | tee -a $S
  EGEMM_SM90_TILE=$t timeout 120 /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section LaunchStats -k regex:'tma_wgmma_gemm_kernel' -c 1 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/8192x8192x8192/" > $OUT/ncu-$t.txt 2>&1
  grep -E "Frequency|Duration|Throughput|Grid Size|Cluster" $OUT/ncu-$t.txt | tee -a $S
done
