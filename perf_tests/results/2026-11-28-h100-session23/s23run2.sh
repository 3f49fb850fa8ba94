#!/usr/bin/env bash
# Session 23, run 2: where NormwiseFP32's split spends the ~50 us it takes beyond Int8Slices' at
# 8192^3 (run 1: a barrier fewer changed nothing): ncu's pipe utilisation, instruction mix and
# per-SASS-instruction stall samples of the first call's lagged_split_kernel, main's library.
set -u
cd "$(dirname "$0")"
[[ -f baseline/libegemm.so.0.1.0.xz ]] && xz -d baseline/libegemm.so.0.1.0.xz lib/libegemm.so.0.1.0.xz
out=${OUT:-out}; mkdir -p "$out"
{ nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv; date -u; } > "$out/device.txt"
export LD_LIBRARY_PATH=$PWD/baseline:$PWD/lib
sections="--section ComputeWorkloadAnalysis --section InstructionStats --section SourceCounters --section WarpStateStats --section SpeedOfLight"
for tag in NormwiseFP32 Int8Slices; do
  t0=$SECONDS
  timeout 200 ncu --clock-control none --kernel-name regex:"lagged_split_kernel" --launch-count 1 $sections \
    --import-source no -o "$out/split-$tag" bin/egemm_bench_suite --benchmark_filter="uniform/egemm_$tag/8192x8192x8192/" \
    > "$out/ncu-$tag.log" 2>&1
  echo "ncu $tag: exit $? in $((SECONDS - t0)) s" | tee -a "$out/device.txt"
  ncu -i "$out/split-$tag.ncu-rep" --page details > "$out/details-$tag.txt" 2>&1
  ncu -i "$out/split-$tag.ncu-rep" --page source --print-source sass --csv > "$out/sass-$tag.csv" 2>&1
done
tar -C "$out" -czf "$out/ncu-split.tar.gz" details-NormwiseFP32.txt details-Int8Slices.txt sass-NormwiseFP32.csv sass-Int8Slices.csv ncu-NormwiseFP32.log ncu-Int8Slices.log
rm -f "$out"/*.ncu-rep "$out"/sass-*.csv "$out"/ncu-*.log
grep -E "Pipe|Issue Slots|Executed Ipc|Duration|Warp Cycles Per Issued" "$out"/details-*.txt | head -40
ls -la "$out"
