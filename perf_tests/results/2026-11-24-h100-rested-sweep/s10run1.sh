#!/usr/bin/env bash
# Session 10 run 1: the tile sweep with each tile's one-call timing taken on a rested GPU (0.25 s
# idle before every timed call) and its sustained timing after a 0.2 s warm-up stream; the same
# sweep at 4096^3 without the rests (synchronised calls back to back, as before); the SM clock and
# power sampled every 100 ms throughout; the suite at 8192^3 and the N = 8192 skewed shapes.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/clocks.csv &
smi=$!
t0=$SECONDS
echo "sweep start $(date -u +%T.%N)" > $OUT/marks.txt
timeout 300 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096,8192x8192x8192,4096x4096x8192,16384x4096x4096 \
  --csv $OUT/sweep.csv > $OUT/sweep.md 2> $OUT/sweep.log
echo "sweep rc=$? in $((SECONDS - t0)) s"
echo "no-rest sweep start $(date -u +%T.%N)" >> $OUT/marks.txt
t0=$SECONDS
timeout 60 bin/egemm_sm90_tile_sweep --shapes 4096x4096x4096 --rest 0 --csv $OUT/sweep-norest.csv \
  > $OUT/sweep-norest.md 2> $OUT/sweep-norest.log
echo "no-rest sweep rc=$? in $((SECONDS - t0)) s"
echo "suite start $(date -u +%T.%N)" >> $OUT/marks.txt
t0=$SECONDS
timeout 170 bin/egemm_bench_suite \
  --benchmark_filter='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(8192x8192x8192|8192x8192x16384|32768x8192x8192)/' \
  --benchmark_out=$OUT/suite.json --benchmark_out_format=json > $OUT/suite.log 2>&1
echo "suite rc=$? in $((SECONDS - t0)) s"
kill $smi
grep -E "^Model's pick|^The model's pick" $OUT/sweep.md $OUT/sweep-norest.md
grep -E "^\| 128x128x3 |^\| 128x128x3c2" $OUT/sweep.md $OUT/sweep-norest.md | cut -d'|' -f1-7
python3 report.py $OUT/suite.json --out $OUT/report --no-plots --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" > /dev/null 2>&1
cat $OUT/report/table.md 2>/dev/null | head -30
cd $OUT && tar czf run1.tgz *.md *.csv *.log *.txt suite.json report/table.md 2>/dev/null; ls
