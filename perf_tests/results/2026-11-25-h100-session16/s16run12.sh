#!/usr/bin/env bash
# Session 16 run 12: the suite's NVML check (gpu_temperature_c, thermal_slowdown) and report.py on
# its JSON; egemm_power_budget after its NVML header moved to perf_tests/support.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/run12-device.txt; date -u | tee -a $OUT/run12-device.txt
bin/egemm_bench_suite --benchmark_filter='uniform/(EmulatedFP32|cublas_sgemm)/(4096x4096x4096|8192x8192x8192)' \
    --benchmark_out=$OUT/run12-suite.json --benchmark_out_format=json 2>&1 | tail -8
echo "suite: exit ${PIPESTATUS[0]}"
python3 report.py $OUT/run12-suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader)"; echo "report: exit $?"
head -20 $OUT/report/table.md
grep -E '"(gpu_temperature_c|thermal_slowdown)"' $OUT/run12-suite.json
timeout 120 bin/egemm_power_budget --shapes 4096x4096x4096 --seconds 0.5 > $OUT/run12-power-budget.md 2>&1; echo "power_budget: exit $?"
tail -15 $OUT/run12-power-budget.md
