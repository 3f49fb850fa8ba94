#!/usr/bin/env bash
# Session 9 run 2 (the staged epilogue: C through the tile's last stage and TMA stores): every GPU
# test; the CUDA tests' kernel/gemm suites again with EGEMM_SM90_C_STORE=registers; kernel alone
# (tile sweep) and the whole call (suite), staged against registers, two rounds alternating.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure|differs" $OUT/checks/egemm_cuda_tests.log | head -20
EGEMM_SM90_C_STORE=registers bin/egemm_cuda_tests --gtest_filter='CudaFusedKernel*:CudaGemm*:CudaSpecialValues*:CudaEmulatedFP32*' > $OUT/registers-tests.log 2>&1
echo "EGEMM_SM90_C_STORE=registers egemm_cuda_tests (subset): exit $?"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/registers-tests.log
for round in 1 2; do
  for store in tma registers; do
    EGEMM_SM90_C_STORE=$store timeout 150 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,16384x4096x4096,4096x4096x8192,8192x8192x8192 \
      > $OUT/sweep-$store-r$round.md 2> /dev/null
    echo "sweep $store round $round rc=$?: $(awk -F'|' '/^### /{s=$2} /model.s pick/{printf "%s %s ms; ", substr(s,5,16), $3}' $OUT/sweep-$store-r$round.md)"
  done
done
for round in 1 2; do
  for store in tma registers; do
    EGEMM_SM90_C_STORE=$store timeout 200 bin/egemm_bench_suite \
      --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm)/(4096x4096x4096|8192x8192x8192|16384x4096x4096|4096x4096x8192)/' \
      > $OUT/suite-$store-r$round.log 2>&1
    echo "suite $store round $round rc=$?"
    grep -E "^uniform/" $OUT/suite-$store-r$round.log | awk '{print "  " $1, $2, $3}' | sed 's|/iterations:1/manual_time||'
  done
done
cd $OUT && tar czf run2.tgz checks/summary.txt checks/precision_profile.md registers-tests.log sweep-*.md suite-*.log && rm -rf sweep-*.md suite-*.log registers-tests.log checks/precision_profile.md
