#!/usr/bin/env bash
# Session 22 run 8: what bounds NormwiseFP32's cross kernel (33 us at 8192^3; halving its bytes in
# run 7 hardly moved it) and its split: ncu's throughput, memory, occupancy and warp-state sections
# for the first call's lagged_split_kernel and int8_cross_kernel, and Int8Slices' split beside them.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
sections="--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats"
for tag in NormwiseFP32 Int8Slices; do
  t0=$SECONDS
  timeout 200 ncu --clock-control none --kernel-name regex:"int8_cross_kernel|lagged_split_kernel|int8_route_kernel" --launch-count 3 $sections \
    bin/egemm_bench_suite --benchmark_filter="uniform/egemm_$tag/8192x8192x8192/" > $OUT/ncu-$tag.txt 2>&1
  echo "ncu $tag: exit $? in $((SECONDS - t0)) s"
  grep -E "^  [a-z_0-9]+kernel|Duration|DRAM Throughput|Memory Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Registers Per|Block Limit" $OUT/ncu-$tag.txt | head -60
done
