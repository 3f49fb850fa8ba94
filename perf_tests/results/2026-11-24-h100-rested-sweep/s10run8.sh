#!/usr/bin/env bash
# Session 10 run 8 (experiment): the split's energy with parts of its work left out
# (EGEMM_EXPERIMENT_SPLIT, compile-time; libraries built from the experiment commit):
# v0 all, v1 no row statistics, v2 no exponent guess, v4 no trip through shared memory, v7 none
# of the three; two rounds; the power budget at 8192^3 (1 s streams).
cd "$(dirname "$0")"
tar xzf exp/libs.tgz -C exp
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for round in 1 2; do
  for v in 0 1 2 4 7; do
    LD_LIBRARY_PATH=$PWD/exp/libs/v$v:$PWD/main/lib timeout 100 main/bin/egemm_power_budget --seconds 1 \
      --shapes 8192x8192x8192 > $OUT/power-v$v-r$round.md 2>/dev/null
    echo "v$v round $round rc=$? $(grep -E "^\| (EmulatedFP32's split|a plain copy)" $OUT/power-v$v-r$round.md | cut -d'|' -f2-5 | tr '\n' ' ')"
  done
done
