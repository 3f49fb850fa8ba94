#!/usr/bin/env bash
# Session 8 run 4 (216dac6: the session's final library, = 4838762's; the timeline tool's final
# form): every policy's call at 4096^3, and EmulatedFP32 on the skewed shapes of issue #5,
# with dependent launches and plain ones.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
P=EmulatedFP32,RoundSplit4,TruncateSplit4,Half,FullRangeTF32x3,NativeFP32
for mode in 1 0; do
  EGEMM_DEPENDENT_LAUNCH=$mode bin/egemm_call_timeline --shapes 4096x4096x4096 --policies $P --csv $OUT/policies-$mode.csv > $OUT/policies-$mode.md
  echo "policies, dependent launches $mode: rc=$?"
  EGEMM_DEPENDENT_LAUNCH=$mode bin/egemm_call_timeline --shapes 4096x4096x8192,16384x4096x4096,8192x8192x16384 --csv $OUT/skewed-$mode.csv > $OUT/skewed-$mode.md
  echo "skewed, dependent launches $mode: rc=$?"
done
grep -E "^###|^Medians" $OUT/*.md | sed 's/(20 calls traced; the call of median GPU span below)//'
cd $OUT && tar czf run4.tgz *.md *.csv && rm -f *.md *.csv
