#!/usr/bin/env bash
# Repeats the accuracy study (fresh seeds) on one shape and tallies, for the family of rows each with
# its own scale 2^U[-20, 20] (a few entries carry C's norm), how often Int8Slices' digits, EmulatedFP32
# and NormwiseFP32 end above FP32's error, the largest ratio of each, and NormwiseFP32's routes.
#   repeat_own_scale.sh STUDY_BINARY SHAPE REPEATS
study=${1:?study binary} shape=${2:?MxNxK} repeats=${3:-10}
csv=$(mktemp)
for _ in $(seq "$repeats"); do
  "$study" --shapes "$shape" --csv "$csv" 2>/dev/null | grep '^| uniform, each row its own scale'
done | awk -F'|' -v shape="$shape" '
  { n++; digits = $9 + 0; emulated = $7 / $8; normwise = $12 + 0
    if (digits > 1) d++; if (emulated > 1) e++; if (normwise > 1) w++; if ($11 ~ /int8_digits/) taken++
    if (digits > md) md = digits; if (emulated > me) me = emulated; if (normwise > mw) mw = normwise }
  END { printf "%s, %d calls: above FP32 error: digits %d (largest %.2fx), EmulatedFP32 %d (%.2fx), NormwiseFP32 %d (%.2fx; took the digits in %d)\n",
        shape, n, d, md, e, me, w, mw, taken }'
rm -f "$csv"
