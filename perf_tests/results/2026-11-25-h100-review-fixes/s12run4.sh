#!/usr/bin/env bash
# Session 12 run 4 (run as one command line from the repository root, the machine still warm from
# run 3): the suite at 1024^3 three times in both regimes, for the hand-off's spread.
cd .device/main && export LD_LIBRARY_PATH=$PWD/lib && for i in 1 2 3; do EGEMM_SUITE_REGIMES=1 bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_EmulatedFP32|egemm_NativeFP32|cublas_sgemm)/1024x1024x1024/' --benchmark_out=$OUT/suite$i.json --benchmark_out_format=json > /dev/null 2>&1; python3 report.py $OUT/suite$i.json --out /tmp/r$i --no-plots --title "H100, session 12 run 4, round $i" > /dev/null 2>&1; grep -E "^\| (egemm|cublas)" /tmp/r$i/table.md; cp /tmp/r$i/table.md $OUT/suite$i-table.md; done
