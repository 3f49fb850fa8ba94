#!/usr/bin/env bash
# Session 9 run 5 (the session's library): every policy's call at 4096^3 (plain launches, as
# session 8's run 4 on its library), staged epilogue and EGEMM_SM90_C_STORE=registers, two
# rounds: RoundSplit4, TruncateSplit4 and Half now stage C too, and Half's ring has 6 stages, not 7.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
P=EmulatedFP32,RoundSplit4,TruncateSplit4,Half,FullRangeTF32x3,NativeFP32
for round in 1 2; do
  for store in tma registers; do
    EGEMM_DEPENDENT_LAUNCH=0 EGEMM_SM90_C_STORE=$store bin/egemm_call_timeline --shapes 4096x4096x4096 --policies $P \
      > $OUT/policies-$store-r$round.md 2> /dev/null
    echo "policies $store round $round: rc=$?"
  done
done
for f in $OUT/policies-*.md; do
  echo "$(basename $f): $(awk '/^### /{split($0,a,", "); split(a[2],b," "); s=b[1]} /^Medians/{match($0,/GPU span \(first start to last end\) [0-9.]+/); printf "%s %s; ", s, substr($0,RSTART+35,RLENGTH-35)}' $f)"
done
cd $OUT && tar czf run5.tgz policies-*.md && rm -f policies-*.md
