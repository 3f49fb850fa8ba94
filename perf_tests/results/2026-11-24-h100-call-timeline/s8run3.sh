#!/usr/bin/env bash
# Session 8 run 3: A/B of the session's library (main: zeroing kernel, batched stream-K fixup,
# evict-first operand loads) against the session's start (base: 4838762's libegemm, the same
# binaries), same machine, alternating: call timelines (dependent launches twice each, plain once)
# and the suite's EmulatedFP32 / SGEMM / four-call at 2048^3, 3072^3, 4096^3, 8192^3; then every GPU test on main.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
SHAPES=2048x2048x2048,3072x3072x3072,4096x4096x4096,8192x8192x8192
FILTER='uniform/(egemm_EmulatedFP32|cublas_sgemm|cublas_tc_emulation)/(2048x2048x2048|3072x3072x3072|4096x4096x4096|8192x8192x8192)/'
for round in 1 2; do
  for lib in base main; do
    export LD_LIBRARY_PATH=$PWD/lib; [[ $lib == base ]] && export LD_LIBRARY_PATH=$PWD/../base/lib:$PWD/lib
    bin/egemm_call_timeline --shapes $SHAPES --csv $OUT/timeline-$lib-r$round.csv > $OUT/timeline-$lib-r$round.md 2>/dev/null
    echo "timeline $lib round $round: rc=$?"
    timeout 150 bin/egemm_bench_suite --benchmark_filter="$FILTER" > /tmp/suite.log 2>&1
    echo "suite $lib round $round: rc=$?"; grep -E "^uniform/" /tmp/suite.log | awk '{print $1, $2, $3, $10}' | sed 's#/iterations:1/manual_time##'
  done
done
for lib in base main; do
  export LD_LIBRARY_PATH=$PWD/lib; [[ $lib == base ]] && export LD_LIBRARY_PATH=$PWD/../base/lib:$PWD/lib
  EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes $SHAPES --csv $OUT/timeline-$lib-plain.csv > $OUT/timeline-$lib-plain.md 2>/dev/null
  echo "plain timeline $lib: rc=$?"
done
export LD_LIBRARY_PATH=$PWD/lib
OUT=$OUT/checks bash run_device_checks.sh tests > /dev/null 2>&1
cat $OUT/checks/summary.txt
grep -E "FAILED|Failure" $OUT/checks/egemm_cuda_tests.log | head -20
rm -f $OUT/checks/precision_profile.md $OUT/checks/egemm_cuda_tests.log $OUT/checks/demo.log $OUT/checks/egemm_kokkos_tests.log
cd $OUT && tar czf run3.tgz *.md *.csv checks && rm -rf *.md *.csv checks   # one file back (the tool returns at most a few)
