#!/usr/bin/env bash
# Session 10 run 2: the power budget (split, gemm kernel, whole call, SGEMM in streams of calls,
# power from NVML's energy counter) at 8192^3, 4096^3 and 8192 x 8192 x 16384; the rested/sustained
# tile sweep again on this machine; the suite's EmulatedFP32, SGEMM and four-call at issue #5's shapes.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/clocks.csv &
smi=$!
t0=$SECONDS
timeout 150 bin/egemm_power_budget --shapes 8192x8192x8192,4096x4096x4096,8192x8192x16384 > $OUT/power.md 2> $OUT/power.log
echo "power budget rc=$? in $((SECONDS - t0)) s"
t0=$SECONDS
timeout 250 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192,4096x4096x8192,16384x4096x4096 \
  --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$? in $((SECONDS - t0)) s"
t0=$SECONDS
timeout 170 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(1024x1024x1024|2048x2048x2048|4096x4096x4096|8192x8192x8192|16384x16384x16384|4096x4096x8192|8192x8192x16384|16384x4096x4096|32768x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
kill $smi
cat $OUT/power.md; tail -3 $OUT/power.log
grep -E "^Model's pick|^The model's pick" $OUT/sweep.md
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1
grep -E "^## |egemm_Emu" $OUT/report/table.md
cd $OUT && tar czf run2.tgz *.md *.csv *.log suite.json report/table.md 2>/dev/null; ls
