#!/usr/bin/env bash
# Session 15 run 4: the library after the Hopper kernel's split into files (device code
# bit-identical) and the include tidy-up: every CUDA test; the benchmark tools after their
# fixes: call_timeline's float64 check on every policy, bench_kokkos through report.py (its x SGEMM
# against the stock gemm), the suite's interleaved default regime at three square sizes.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
t0=$SECONDS
bin/egemm_cuda_tests --gtest_color=no > $OUT/cuda-tests.log 2>&1
echo "egemm_cuda_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/cuda-tests.log | tee $OUT/cuda-tests-summary.txt
grep -E "Failure" -A8 $OUT/cuda-tests.log | head -30
rm -f $OUT/cuda-tests.log
bin/egemm_cuda_reset_tests --gtest_color=no 2>&1 | grep -E "^\[  PASSED|^\[  FAILED|^\[==" | tee $OUT/reset-tests-summary.txt
t0=$SECONDS
timeout 240 bin/egemm_call_timeline --shapes 2048x2048x2048,4096x4096x4096 --policies EmulatedFP32,RoundSplit4,TruncateSplit4,Half,FullRangeTF32x3,NativeFP32 --calls 10 > $OUT/timeline.md 2> $OUT/timeline.log
echo "call_timeline: exit $? in $((SECONDS - t0)) s"; grep -E "^###|^Checked|^Medians" $OUT/timeline.md | head -40; tail -3 $OUT/timeline.log
t0=$SECONDS
timeout 150 bin/egemm_bench_kokkos --benchmark_filter='/4096' --benchmark_out=$OUT/bench-kokkos.json --benchmark_out_format=json > $OUT/bench-kokkos.txt 2>&1
echo "bench_kokkos: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/bench-kokkos.json --out $OUT/kokkos-report --no-plots > /dev/null 2>&1; echo "report.py (kokkos): exit $?"; cat $OUT/kokkos-report/table.md 2>/dev/null | head -30
t0=$SECONDS
timeout 400 bin/egemm_bench_suite --benchmark_filter='uniform/.*/(2048x2048x2048|4096x4096x4096|8192x8192x8192)' --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.txt 2>&1
echo "suite: exit $? in $((SECONDS - t0)) s"
python3 report.py $OUT/suite.json --out $OUT/suite-report --no-plots > /dev/null 2>&1; echo "report.py (suite): exit $?"; cat $OUT/suite-report/table.md | head -60
