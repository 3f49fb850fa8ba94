#!/usr/bin/env bash
# Session 9 run 4 (e2851bf + the int32 coordinate limit: the session's library): every GPU test;
# the call timeline (plain launches, 20 calls, per-kernel medians) with the staged epilogue and with
# EGEMM_SM90_C_STORE=registers, two rounds alternating; the suite's EmulatedFP32, SGEMM, four-call and
# Ootomo three-call emulations at the square and skewed shapes (uniform inputs).
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|differs" $OUT/checks/egemm_cuda_tests.log | head -20
for round in 1 2; do
  for store in tma registers; do
    EGEMM_DEPENDENT_LAUNCH=0 EGEMM_SM90_C_STORE=$store timeout 120 bin/egemm_call_timeline \
      --shapes 4096x4096x4096,4096x4096x8192,16384x4096x4096,8192x8192x8192 --calls 20 \
      > $OUT/timeline-$store-r$round.md 2> /dev/null
    echo "timeline $store round $round rc=$?"
    grep -E "^###|^Medians|\| (tma_wgmma|split_kernel)" $OUT/timeline-$store-r$round.md | grep -v "SGEMM" | head -40
  done
done
t0=$SECONDS
timeout 330 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation|cublas_ootomo3)/(2048x2048x2048|4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|8192x2048x2048|16384x4096x4096)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1
cat $OUT/report/table.md 2>/dev/null | head -40
cd $OUT && tar czf run4.tgz checks/summary.txt timeline-*.md suite.json suite.log report/table.md && rm -rf timeline-*.md suite.log report
