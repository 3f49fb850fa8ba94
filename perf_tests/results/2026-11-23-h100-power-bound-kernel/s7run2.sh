#!/usr/bin/env bash
# Session 7 run 2: run 1 with the benchmark filters fixed (a name ends in /iterations:1/manual_time), tests skipped
# ncu of the Hopper kernel at 8192^3 (shared-memory traffic against the tensor pipe)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,clocks.max.sm --format=csv,noheader; date -u; } | tee -a $S
F='uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)'
for i in 1 2 3; do
  echo "== hand-off alone, round $i" | tee -a $S
  timeout 60 bin/egemm_bench_suite --benchmark_filter="$F/1024x1024x2048/" 2>&1 | grep -E "uniform/" | tee -a $S
done
echo "== after 16384^3" | tee -a $S
timeout 120 bin/egemm_bench_suite --benchmark_filter="$F/(16384x16384x16384|1024x1024x2048)/" 2>&1 | grep -E "uniform/" | tee -a $S
echo "== call overhead 1024^3" | tee -a $S
timeout 60 bin/egemm_call_overhead 1024 2>&1 | tee -a $S
echo "== ncu 8192^3 kernel" | tee -a $S
timeout 240 /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis --print-details all \
  -k regex:'tma_wgmma_gemm_kernel' -c 1 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/8192x8192x8192/" > $OUT/ncu-8192.txt 2>&1
echo "ncu rc=$?" | tee -a $S
grep -iE "Duration|Throughput|Shared|bank|pipe|gmma|Frequency|Busy|Issue" $OUT/ncu-8192.txt | head -60 | tee -a $S
