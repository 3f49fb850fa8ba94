#!/usr/bin/env bash
# Runs a build's GPU checks on a remote GPU machine, from a folder made by
# stage_device_run.sh, writing logs to OUT (default ./out, at most 7 files per
# mode) and a summary last. (scripts/record_results.sh, staged beside it,
# writes a performance record.)
# Several modes run one after another in one call: a change's tests, the
# sanitizers on them and its A/B are
#   TESTS_FILTER=F SANITIZE_FILTER=F SANITIZE_TOOLS="memcheck racecheck" run_device_checks.sh tests sanitize ab
#   run_device_checks.sh tests   GPU unit tests (CUDA backend, device resets, Kokkos on CUDA), demo, precision
#                                profile; with TESTS_FILTER, only the CUDA backend's tests it names
#   run_device_checks.sh bench   the GEMM suite (SUITE_FILTER), a call's host time at 1024^3, the kMeans/kNN sweeps
#   run_device_checks.sh tiles   the Hopper kernel's tile sweep against the analytic model (TILE_SHAPES)
#   run_device_checks.sh timeline  one call's kernels on the GPU's timeline (TIMELINE_SHAPES), with
#                                dependent launches and without (each kernel's own time)
#   run_device_checks.sh ab      the staged library against the one staged as the baseline
#                                (STAGE_BASELINE): each kernel's own time, one process a side,
#                                alternating for AB_ROUNDS rounds (default 3), AB_POLICIES
#                                (default EmulatedFP32) at AB_SHAPES (default 8192^3)
#   run_device_checks.sh sanitize  the GPU unit tests that run every kernel on small shapes
#                                (SANITIZE_FILTER) under compute-sanitizer's tools (SANITIZE_TOOLS:
#                                memcheck racecheck synccheck initcheck; SANITIZE_TIMEOUT_S a tool)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
(( $# > 0 )) || { echo "usage: run_device_checks.sh MODE [MODE ...]: tests, bench, tiles, timeline, ab or sanitize" >&2; exit 2; }
for mode in "$@"; do
  case $mode in tests|bench|tiles|timeline|ab|sanitize) ;;
    *) echo "unknown mode '$mode': tests, bench, tiles, timeline, ab or sanitize" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib:${LD_LIBRARY_PATH:-}"
summary="$out/summary.txt"
: > "$summary"
failed=0
# A step's verdict into the summary; any failing step makes the script fail.
verdict() {  # verdict RC WHAT [T0]
  echo "$2: exit $1${3:+ in $((SECONDS - $3)) s}" | tee -a "$summary"
  (( $1 == 0 )) || failed=1
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv,noheader | tee -a "$summary"
date -u +"date %Y-%m-%dT%H:%M:%SZ" | tee -a "$summary"

run_tests() {  # run_tests BINARY [ARGS]: a GoogleTest binary, its full log to OUT, the verdict to the summary
  local bin=$1
  [[ -x $here/bin/$bin ]] || { echo "$bin: not staged" | tee -a "$summary"; return; }
  local t0=$SECONDS
  "$here/bin/$bin" --gtest_color=no "${@:2}" > "$out/$bin.log" 2>&1
  local rc=$?
  verdict $rc "$bin" $t0
  { grep -E '^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]' "$out/$bin.log" | head -30; } | tee -a "$summary"
}

for mode in "$@"; do
case $mode in
  tests)
    if [[ -n ${TESTS_FILTER:-} ]]; then  # a change's tests only
      run_tests egemm_cuda_tests --gtest_filter="$TESTS_FILTER"
      continue
    fi
    run_tests egemm_cuda_tests
    run_tests egemm_cuda_reset_tests
    run_tests egemm_kokkos_tests
    { "$here/bin/egemm_demo" 1024 && "$here/bin/egemm_demo" 4096; } > "$out/demo.log" 2>&1
    verdict $? demo
    "$here/bin/egemm_precision_profile" "${PROFILE_TRIALS:-400}" > "$out/precision_profile.md" 2>&1
    verdict $? "precision profile"
    ;;
  bench)
    rm -rf "$out/suite.json" "$out/suite_table.md" "$out/cases.csv" /tmp/egemm_report  # nothing of an earlier run passes for this one's
    t0=$SECONDS
    "$here/bin/egemm_bench_suite" --benchmark_filter="${SUITE_FILTER:-uniform/.*/(4096x4096x4096|8192x8192x8192)}" \
        --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
    verdict $? suite $t0
    "$here/bin/egemm_call_overhead" 1024 > "$out/call_overhead.md" 2>&1
    verdict $? "call overhead (1024^3)"
    python3 "$here/report.py" "$out/suite.json" --out /tmp/egemm_report --no-plots \
        --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" >> "$summary" 2>&1
    verdict $? "suite report"
    [[ -f /tmp/egemm_report/table.md ]] && cp /tmp/egemm_report/table.md "$out/suite_table.md"
    t0=$SECONDS
    # The sweeps of perf_tests/case_studies/README.md (EmulatedFP32 against NativeFP32).
    { "$here/bin/egemm_kmeans" --tag EmulatedFP32 --sweep --dims 128 --clusters 64 --iters 10 --csv "$out/cases.csv" &&
      "$here/bin/egemm_knn" --tag EmulatedFP32 --sweep --dims 128 --queries 4096 --k 16 --csv "$out/cases.csv"
    } > "$out/cases.log" 2>&1
    verdict $? "case studies" $t0
    ;;
  tiles)
    t0=$SECONDS
    "$here/bin/egemm_sm90_tile_sweep" ${TILE_SHAPES:+--shapes "$TILE_SHAPES"} --csv "$out/tile_sweep.csv" \
        > "$out/tile_sweep.md" 2> "$out/tile_sweep.log"
    verdict $? "tile sweep" $t0
    grep -E "^Model's pick|^The model's pick" "$out/tile_sweep.md" | tee -a "$summary"
    ;;
  timeline)
    for launches in dependent plain; do
      t0=$SECONDS
      "$here/bin/egemm_call_timeline" ${TIMELINE_SHAPES:+--shapes "$TIMELINE_SHAPES"} --csv "$out/timeline-$launches.csv" \
        $([[ $launches == plain ]] && echo --plain-launches) \
        > "$out/timeline-$launches.md" 2> "$out/timeline-$launches.log"
      verdict $? "call timeline ($launches launches)" $t0
      grep -E "^###|^Medians" "$out/timeline-$launches.md" | tee -a "$summary"
      python3 "$here/plot_call_timeline.py" "$out/timeline-$launches.csv" --out "$out/timeline-$launches.png" \
        --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $launches launches" >> "$summary" 2>&1
    done
    ;;
  ab)
    [[ -d $here/baseline ]] || { echo "no baseline staged (STAGE_BASELINE=BUILD_DIR stage_device_run.sh)" | tee -a "$summary"; exit 1; }
    traces=$(mktemp -d)
    for round in $(seq "${AB_ROUNDS:-3}"); do
      for side in change baseline; do  # alternating: both sides see the board's clock drift alike
        libs=$([[ $side == baseline ]] && echo "$here/baseline:$here/lib" || echo "$here/lib")
        t0=$SECONDS
        LD_LIBRARY_PATH=$libs:${LD_LIBRARY_PATH:-} "$here/bin/egemm_call_timeline" --plain-launches \
            --shapes "${AB_SHAPES:-8192x8192x8192}" --policies "${AB_POLICIES:-EmulatedFP32}" --calls "${AB_CALLS:-9}" \
            --csv "$traces/$side-$round.csv" > "$traces/$side-$round.md" 2>&1
        verdict $? "call timeline, $side, round $round" $t0
      done
    done
    python3 "$here/compare_call_timelines.py" --change "$traces"/change-*.csv --baseline "$traces"/baseline-*.csv \
      --out "$out/ab.md" > /dev/null 2>> "$summary"
    verdict $? "A/B table"
    grep -E "^###|GPU span" "$out/ab.md" | tee -a "$summary"
    tar -C "$traces" -czf "$out/ab-traces.tar.gz" .  # one file for all the traces
    rm -rf "$traces"
    ;;
  sanitize)
    sanitizer=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
    [[ -x $sanitizer ]] || { echo "compute-sanitizer: not found" | tee -a "$summary"; exit 1; }
    # Every kernel and split on shapes up to ~1000 (the tools slow kernels 10-100x). Left out:
    # tests that provoke errors on purpose (launch failures, unread errors, out of memory) and
    # the 2^31-element and accuracy tests (minutes each under a tool).
    filter=${SANITIZE_FILTER:-'CudaGemm/*:CudaGemmBetaZero.*:CudaFusedKernel.*:CudaSplit.*:CudaInt8Slices.*:CudaNormwiseFP32.*:CudaSpecialValues/*:CudaEmulatedFP32.*:CudaStreamSemantics/*:CudaWorkspace.*:-CudaInt8Slices.TheDeepestSum*'}
    for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
      tool_filter=$filter
      if [[ -z ${SANITIZE_FILTER:-} && ( $tool == racecheck || $tool == initcheck ) ]]; then
        # Several times slower than memcheck: the size sweeps (up to 1000) stay out, the other
        # tests run every kernel; and initcheck holds each call until its kernels end, so the
        # test that a call only enqueues cannot pass under it.
        tool_filter+=':*AllTransposesSizesPaddedLeadingDimensions'
        [[ $tool == initcheck ]] && tool_filter+=':*ACallReturnsWhileItsStreamIsHeld'
      fi
      # initcheck does not see what TMA stores write (C left unwritten before a call, then
      # staged for TMA stores: reported as uninitialised, written from registers: not), and
      # every test writes C (poison) before its calls, so none of its C is reported.
      t0=$SECONDS
      # API errors are the tests' own business (they check what each call returns); the
      # tools' verdicts here are the device's: accesses, races, barriers, uninitialised reads.
      timeout "${SANITIZE_TIMEOUT_S:-0}" "$sanitizer" --tool "$tool" --report-api-errors no --error-exitcode 86 \
          "$here/bin/egemm_cuda_tests" --gtest_color=no --gtest_filter="$tool_filter" > "$out/sanitize-$tool.log" 2>&1
      verdict $? "compute-sanitizer --tool $tool" $t0
      { grep -E '^\[  PASSED  \]|^\[  FAILED  \]|^\[==========\] [0-9]+ tests|ERROR SUMMARY|RACECHECK SUMMARY' \
          "$out/sanitize-$tool.log" | head -12; } | tee -a "$summary"
    done
    ;;
esac
done
exit $failed
