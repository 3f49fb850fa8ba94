#!/usr/bin/env bash
# Session 14 run 5: the benchmark tools after their review (88ca64f): bench_cuda and bench_kokkos
# checking on a NaN-poisoned C, the split-only entry as a time, the shared median; call_overhead
# and call_timeline after their input fill is waited for.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
timeout 150 bin/egemm_bench_cuda --benchmark_filter='cuda/(cublas_sgemm|cublas_tc_emulation_4call|egemm_EmulatedFP32|egemm_EmulatedFP32_split_only|egemm_Half)/4096' > $OUT/bench-cuda.txt 2>&1
echo "bench_cuda: exit $?"; tail -8 $OUT/bench-cuda.txt
timeout 120 bin/egemm_bench_kokkos --benchmark_filter='/4096' > $OUT/bench-kokkos.txt 2>&1
echo "bench_kokkos: exit $?"; grep -E "^kokkos" $OUT/bench-kokkos.txt | cut -c1-200
bin/egemm_call_overhead 1024 > $OUT/call-overhead.md 2>&1; echo "call_overhead: exit $?"; grep -E "^\|" $OUT/call-overhead.md
timeout 120 bin/egemm_call_timeline --shapes 2048x2048x2048 --csv $OUT/timeline.csv > $OUT/timeline.md 2> $OUT/timeline.log
echo "call_timeline: exit $?"; grep -E "^###|^Medians|NaN" $OUT/timeline.md | head; tail -3 $OUT/timeline.log
