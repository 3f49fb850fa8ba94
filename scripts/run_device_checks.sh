#!/usr/bin/env bash
# Runs on the GPU machine from a folder made by stage_device_run.sh: every GPU
# test binary, then the benchmarks named in SUITE_FILTER, writing logs and
# JSON to OUT (default ./out). Prints a summary last.
#   run_device_checks.sh [tests|bench|all]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mode=${1:-all}
mkdir -p "$out"
export LD_LIBRARY_PATH="$here/lib:${LD_LIBRARY_PATH:-}"
summary="$out/summary.txt"
: > "$summary"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee -a "$summary"
date -u +"date %Y-%m-%dT%H:%M:%SZ" | tee -a "$summary"

run_tests() {  # a GoogleTest binary: full log to OUT, the verdict lines to the summary
  local bin=$1
  [[ -x $here/bin/$bin ]] || { echo "$bin: not staged" | tee -a "$summary"; return; }
  "$here/bin/$bin" --gtest_color=no > "$out/$bin.log" 2>&1
  local rc=$?
  { echo "$bin: exit $rc"; grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/$bin.log" | sort | uniq -c | head -40; } | tee -a "$summary"
}

if [[ $mode == tests || $mode == all ]]; then
  for t in egemm_cuda_tests egemm_kokkos_tests egemm_host_tests; do run_tests "$t"; done
fi
if [[ $mode == bench || $mode == all ]]; then
  if [[ -x $here/bin/egemm_bench_suite ]]; then
    "$here/bin/egemm_bench_suite" --benchmark_filter="${SUITE_FILTER:-uniform/.*/(4096x4096x4096|8192x8192x8192)}" \
        --benchmark_out="$out/suite.json" --benchmark_out_format=json > "$out/suite.log" 2>&1
    echo "suite: exit $?" | tee -a "$summary"
    python3 "$here/report.py" "$out/suite.json" --out /tmp/egemm_report --title "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" --no-plots >> "$summary" 2>&1
    cp /tmp/egemm_report/table.md "$out/suite_table.md" 2>/dev/null
  fi
fi
