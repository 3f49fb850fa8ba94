#!/usr/bin/env bash
# Session 7 run 1 (commit 5eae25a): the owed GPU tests; the 1024 x 1024 x 2048 hand-off in isolation;
# ncu of the Hopper kernel at 8192^3 (shared-memory traffic against the tensor pipe)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
S=$OUT/summary.txt
{ nvidia-smi --query-gpu=name,serial,clocks.max.sm --format=csv,noheader; date -u; } | tee -a $S
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt | tee -a $S
rm -f $OUT/checks/egemm_cuda_tests.log
F='uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)'
for i in 1 2 3; do
  echo "== hand-off alone, round $i" | tee -a $S
  timeout 60 bin/egemm_bench_suite --benchmark_filter="$F/1024x1024x2048/" 2>&1 | grep -E "^uniform" | tee -a $S
done
echo "== after 16384^3" | tee -a $S
timeout 120 bin/egemm_bench_suite --benchmark_filter="$F/(16384x16384x16384|1024x1024x2048)/" 2>&1 | grep -E "^uniform" | tee -a $S
echo "== call overhead 1024^3" | tee -a $S
timeout 60 bin/egemm_call_overhead 1024 2>&1 | tee -a $S
echo "== ncu 8192^3 kernel" | tee -a $S
timeout 240 /usr/local/cuda/bin/ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section ComputeWorkloadAnalysis \
  --metrics l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__cycles_active.avg.per_second \
  -k regex:'tma_wgmma_gemm_kernel' -c 1 bin/egemm_bench_suite --benchmark_filter="uniform/egemm_EmulatedFP32/8192x8192x8192/" > $OUT/ncu-8192.txt 2>&1
echo "ncu rc=$?" | tee -a $S
grep -iE "Duration|Throughput|Shared|bank|pipe|gmma|Frequency|Busy|Issue" $OUT/ncu-8192.txt | head -60 | tee -a $S
