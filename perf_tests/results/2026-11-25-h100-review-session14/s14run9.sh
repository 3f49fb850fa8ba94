#!/usr/bin/env bash
# Session 14 run 9: a call's host time at 2048^3 (EmulatedFP32 on the tensor cores), the library
# before this session (832af24) against the final one, interleaved, four rounds each: does
# reading the switches once per call, the launches' own status checks or the stream check's
# context look cost host time?
cd "$(dirname "$0")/main"
tar xJf lib-before.tar.xz
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for round in 1 2 3 4; do
  for lib in lib-before lib; do
    echo "## $lib, round $round" >> $OUT/call-overhead-2048.md
    LD_LIBRARY_PATH=$PWD/$lib bin/egemm_call_overhead 2048 >> $OUT/call-overhead-2048.md 2>&1
  done
done
grep -E "^## |^\| egemm_EmulatedFP32 \| [0-9]" $OUT/call-overhead-2048.md
