#!/usr/bin/env bash
# Records EGEMM's performance on one GPU into a folder like perf_tests/results/<gpu>/: the GEMM suite
# in three regimes, the kMeans/kNN case studies, the precision profile and call overhead; then
# perf_tests/report.py writes the folder's README.md and figures.
usage() {
  cat <<'EOF'
usage: scripts/record_results.sh [--archive FILE] [--no-plots] [--dry-run] PROGRAMS RECORD_DIR

PROGRAMS is a CMake build directory of EGEMM with CUDA (its perf_tests programs), or a folder made by
scripts/stage_device_run.sh (programs in bin/, libraries in lib/). RECORD_DIR is created (emptied
first if it exists). Runs on the machine with the GPU, one GPU (CUDA_VISIBLE_DEVICES picks it):

  1. suite, three regimes  egemm_bench_suite, EGEMM_SUITE_REGIMES=1 (EGEMM_SUITE_FP64=1 for its FP64
                           section): every EGEMM tag and cuBLAS baseline, uniform inputs, at 8192^3 and
                           16384^3; EmulatedFP32, NormwiseFP32 and SGEMM on the sparse-outlier inputs
                           at 8192^3; EmulatedFP64 and DGEMM, uniform and normal inputs, at 8192^3 and
                           16384^3 (47 benchmarks, ~4 s each with the regimes: ~3 min)
  2. suite, median only    every tag and baseline, uniform inputs at 1024^3, 2048^3, 4096^3,
                           32768x8192x8192 and 8192x8192x16384, wide and sparse-outlier inputs at
                           8192^3; the FP64 section: EmulatedFP64 and DGEMM on its three input
                           families, square 2048..16384 and the skewed shapes, and cuBLAS's
                           fixed-point emulation (both strategies) on uniform inputs up to 8192
                           (~185 benchmarks, most under 1 s: ~1.5 min)
  3. case studies          egemm_kmeans and egemm_knn sweeps, EmulatedFP32 against NativeFP32,
                           128 dimensions (~20 s; skipped where they were not built: they need Kokkos)
  4. precision profile     egemm_precision_profile, PROFILE_TRIALS (400) trials a design (~15 s)
  5. call overhead         egemm_call_overhead at 256x256x4096, 512^3, 1024^3 (~30 s: 11 rested
                           calls a method, each after 0.25 s idle)
  6. report                report.py merge (the two suite passes into suite.json), then
                           report.py record RECORD_DIR: README.md and the figures
About 7-8 minutes in all on an H100 or H200 (the suite's times from its logs there).

RECORD_DIR then holds README.md, record.json (device, driver, date, library commit, this command),
record.log (every program's output), suite.json, case_studies.csv, precision_profile.md,
call_overhead.md and, where Python has matplotlib, headline.png, fig8_square.png, fig9_skewed.png,
fig7_error.png and fig_wide.png. `python3 perf_tests/report.py record RECORD_DIR` rebuilds README.md
and the figures from those raw files on any machine (e.g. where the GPU machine lacks matplotlib).

  --archive FILE   also pack RECORD_DIR into FILE (a .tar.gz), for machines that return few files
  --no-plots       README.md only (report.py record --no-plots)
  --dry-run        print each step's command, run nothing
Environment: SUITE_REGIMES_FILTER, SUITE_MEDIAN_FILTER (Google Benchmark regexes over the suite's
<inputs>/<method>/<M>x<N>x<K> names), PROFILE_TRIALS, OVERHEAD_SHAPES (';'-separated "m [n k]"),
EGEMM_COMMIT (the library commit to state, where PROGRAMS is a staged folder without one).
Exit status: 0 when every step succeeded (case studies that were not built do not count), 1 otherwise.
EOF
}
set -uo pipefail

archive="" no_plots="" dry_run=0
args=()
while (( $# > 0 )); do
  case $1 in
    --archive) archive=${2:?--archive needs a file}; shift 2 ;;
    --archive=*) archive=${1#--archive=}; shift ;;
    --no-plots) no_plots=--no-plots; shift ;;
    --dry-run) dry_run=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "record_results.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
(( ${#args[@]} == 2 )) || { usage >&2; exit 2; }
programs=$(cd "${args[0]}" 2>/dev/null && pwd) || { echo "record_results.sh: no directory ${args[0]}" >&2; exit 2; }
record=${args[1]}
[[ -n $archive && $archive != /* ]] && archive=$PWD/$archive
here=$(cd "$(dirname "$0")" && pwd)
command_line="scripts/record_results.sh${archive:+ --archive $(basename "$archive")}${no_plots:+ $no_plots} ${args[*]}"

# A staged folder has bin/ and lib/; a build directory has CMakeCache.txt and the programs in its tree.
if [[ -d $programs/bin ]]; then
  export LD_LIBRARY_PATH="$programs/lib:${LD_LIBRARY_PATH:-}"
elif [[ ! -f $programs/CMakeCache.txt ]]; then
  echo "record_results.sh: $programs is neither a build directory nor a staged folder (bin/, lib/)" >&2
  exit 2
fi
program() {  # program NAME: its path under PROGRAMS, or nothing
  if [[ -x $programs/bin/$1 ]]; then echo "$programs/bin/$1"; return; fi
  find "$programs" -type f -perm -u+x -name "$1" ! -path '*/CMakeFiles/*' 2>/dev/null | head -1
}
report=""
for candidate in "$here/../perf_tests/report.py" "$here/report.py" "$programs/report.py"; do
  [[ -f $candidate ]] && { report=$candidate; break; }
done
[[ -n $report ]] || { echo "record_results.sh: report.py not found beside the script or in $programs" >&2; exit 2; }
# Plots need matplotlib: Debian's lives in /usr/bin/python3, which another python3 in PATH may hide.
python=python3
for py in /usr/bin/python3 python3; do
  if command -v "$py" > /dev/null && "$py" -c "import matplotlib" 2> /dev/null; then python=$py; break; fi
done
if [[ -z $no_plots ]] && ! "$python" -c "import matplotlib" 2> /dev/null; then
  echo "record_results.sh: no Python with matplotlib here: README.md only (report.py record DIR draws the figures elsewhere)"
  no_plots=--no-plots
fi

suite=$(program egemm_bench_suite)
profile=$(program egemm_precision_profile)
overhead=$(program egemm_call_overhead)
kmeans=$(program egemm_kmeans)
knn=$(program egemm_knn)
methods_any='[^/]+'
fp64_methods='(egemm_EmulatedFP64|cublas_dgemm)'
regimes_filter=${SUITE_REGIMES_FILTER:-"^(uniform/$methods_any/(8192x8192x8192|16384x16384x16384)|outliers[456]/(egemm_EmulatedFP32|egemm_NormwiseFP32|cublas_sgemm)/8192x8192x8192|fp64_(uniform|normal)/$fp64_methods/(8192x8192x8192|16384x16384x16384))/"}
# The median pass leaves out what the regimes pass times.
other_fp32='(egemm_(RoundSplit4|TruncateSplit4|Half|NativeFP32|FullRangeTF32x3|Int8Slices)|cublas_(tf32|bf16x9|half|tc_emulation|markidis|ootomo3))'
other_shapes='(2048x2048x2048|4096x4096x4096|2048x2048x4096|4096x4096x8192|8192x8192x16384|8192x2048x2048|16384x4096x4096|32768x8192x8192)'
median_filter=${SUITE_MEDIAN_FILTER:-"^(uniform/$methods_any/(1024x1024x1024|2048x2048x2048|4096x4096x4096|32768x8192x8192|8192x8192x16384)|wide/$methods_any/8192x8192x8192|outliers[456]/$other_fp32/8192x8192x8192|fp64_(uniform|normal)/$fp64_methods/$other_shapes|fp64_wide/$fp64_methods/[0-9x]+|fp64_uniform/cublas_fp64_fixedpoint[a-z_]*/(2048x2048x2048|4096x4096x4096|8192x8192x8192))/"}
IFS=';' read -r -a overhead_shapes <<< "${OVERHEAD_SHAPES:-256 256 4096;512;1024}"

start=$SECONDS
failed=0
log=$record/record.log
progress() {  # one line per step, with the seconds since the start
  if (( dry_run )); then printf '%s\n' "$*"; else printf '[%4d s] %s\n' $((SECONDS - start)) "$*" | tee -a "$log"; fi
}
into() {  # into FILE COMMAND...: COMMAND's standard output appended to FILE, a blank line after
  local file=$1
  shift
  "$@" >> "$file" && echo >> "$file"
}
step() {  # step WHAT COMMAND...: runs COMMAND (output to record.log unless it redirects), says how it went
  local what=$1 t0=$SECONDS
  shift
  if (( dry_run )); then printf '%s: %s\n' "$what" "$*"; return 0; fi
  echo "### $what: $*" >> "$log"
  "$@" >> "$log" 2>&1
  local rc=$?
  progress "$what: $([[ $rc == 0 ]] && echo ok || echo "FAILED (exit $rc)") in $((SECONDS - t0)) s"
  (( rc == 0 )) || failed=1
  return $rc
}

if (( ! dry_run )); then
  [[ -n $suite ]] || { echo "record_results.sh: egemm_bench_suite not found under $programs (a CUDA build?)" >&2; exit 2; }
  rm -rf "$record"
  mkdir -p "$record"
  record=$(cd "$record" && pwd)
  log=$record/record.log
  : > "$log"
  first_gpu=${CUDA_VISIBLE_DEVICES:-0}
  gpu=$(nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader -i "${first_gpu%%,*}" 2>/dev/null | head -1)
  [[ -n $gpu ]] || gpu=$(nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader 2>/dev/null | head -1)
  commit=${EGEMM_COMMIT:-}
  if [[ -z $commit && -f $programs/commit ]]; then commit=$(< "$programs/commit"); fi
  if [[ -z $commit && -f $programs/CMakeCache.txt ]]; then
    source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$programs/CMakeCache.txt")
    commit=$(git -C "$source_dir" describe --always --dirty 2>/dev/null)
  fi
  GPU="$gpu" COMMIT="$commit" COMMAND="$command_line" DATE="$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$python" - "$record/record.json" <<'EOF'
import json, os, sys
name, driver, power = (os.environ["GPU"].split(",") + ["", "", ""])[:3]
meta = {"device": name.strip() or "unknown GPU", "driver": f"{driver.strip()}, power limit {power.strip()}".strip(", "),
        "date": os.environ["DATE"], "commit": os.environ["COMMIT"] or "unknown", "command": os.environ["COMMAND"]}
with open(sys.argv[1], "w") as f:
    json.dump(meta, f, indent=1)
    f.write("\n")
EOF
  progress "recording on ${gpu:-an unnamed GPU} into $record (library ${commit:-unknown})"
fi

step "suite, three regimes" env EGEMM_SUITE_FP64=1 EGEMM_SUITE_REGIMES=1 "${suite:-egemm_bench_suite}" --benchmark_filter="$regimes_filter" \
  --benchmark_out="$record/suite-regimes.json" --benchmark_out_format=json
step "suite, median only" env -u EGEMM_SUITE_REGIMES EGEMM_SUITE_FP64=1 "${suite:-egemm_bench_suite}" --benchmark_filter="$median_filter" \
  --benchmark_out="$record/suite-median.json" --benchmark_out_format=json

if [[ -n $kmeans && -n $knn ]] || (( dry_run )); then
  # The sweeps of perf_tests/case_studies/README.md: EmulatedFP32 against NativeFP32, sizes 2048..65536.
  step "case studies: kMeans" "${kmeans:-egemm_kmeans}" --tag EmulatedFP32 --sweep --dims 128 --clusters 64 --iters 10 \
    --csv "$record/case_studies.csv"
  step "case studies: kNN" "${knn:-egemm_knn}" --tag EmulatedFP32 --sweep --dims 128 --queries 4096 --k 16 \
    --csv "$record/case_studies.csv"
else
  progress "case studies: skipped (egemm_kmeans and egemm_knn are built only with Kokkos: configure with a CUDA Kokkos)"
fi

if [[ -n $profile ]] || (( dry_run )); then
  (( dry_run )) || : > "$record/precision_profile.md"
  step "precision profile" into "$record/precision_profile.md" "${profile:-egemm_precision_profile}" "${PROFILE_TRIALS:-400}"
else
  progress "precision profile: egemm_precision_profile not found: FAILED"; failed=1
fi

if [[ -n $overhead ]] || (( dry_run )); then
  (( dry_run )) || : > "$record/call_overhead.md"
  for shape in "${overhead_shapes[@]}"; do
    # shellcheck disable=SC2086  # "m n k" splits into the program's arguments
    step "call overhead ($shape)" into "$record/call_overhead.md" "${overhead:-egemm_call_overhead}" $shape
  done
else
  progress "call overhead: egemm_call_overhead not found: FAILED"; failed=1
fi

if (( dry_run )); then
  echo "report: $report merge suite-regimes.json suite-median.json --out suite.json; $report record $record $no_plots"
  exit 0
fi
jsons=()
for j in "$record/suite-regimes.json" "$record/suite-median.json"; do [[ -s $j ]] && jsons+=("$j"); done
if (( ${#jsons[@]} > 0 )) && step "report: suite.json" "$python" "$report" merge "${jsons[@]}" --out "$record/suite.json"; then
  rm -f "${jsons[@]}"
  step "report: README.md${no_plots:+ (no figures)}" "$python" "$report" record "$record" $no_plots
  # The short table: every method at 8192^3 in the three regimes.
  "$python" "$report" summary "$record" | tee -a "$log"
else
  progress "report: no suite output to report"; failed=1
fi
if [[ -n $archive ]]; then
  step "archive $(basename "$archive")" tar -C "$(dirname "$record")" -czf "$archive" "$(basename "$record")"
fi
progress "done: $(find "$record" -type f | wc -l) files in $record$([[ $failed == 0 ]] || echo '; some steps FAILED')"
exit $failed
