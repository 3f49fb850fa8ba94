#!/usr/bin/env bash
# Session 18 run 5: the lagged split's lag, 64 to 256 panels (run 4: 128 beat
# 512, whose re-reads missed L2: DRAM at 84% of its peak), at 8192^3,
# 4096x4096x8192 and 16384^3 (where the cluster split does not apply), with
# the cluster and two-read splits beside it; two rounds.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
for round in 1 2; do
for v in lag64 lag96 lag128 lag192 lag256 cluster two_reads; do
  case $v in lag*) env="EGEMM_INT8_SPLIT_EXPERIMENT_LAG=${v#lag}";; cluster) env="EGEMM_INT8_SPLIT_EXPERIMENT=cluster";; two_reads) env="EGEMM_INT8_CLUSTER_SPLIT=0";; esac
  env $env EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192,16384x16384x16384 --policies Int8Slices --calls 3 2>/dev/null \
    | grep -E "^###|split_kernel|maxima|digits_kernel" | grep -v "cuBLAS" | sed "s/^/round $round $v: /" | tee -a $OUT/timeline.txt
done; done > /dev/null
grep -E "split_kernel|maxima|digits" $OUT/timeline.txt | awk -F"|" "{print \$1, \$3, \$6}"
