#!/usr/bin/env bash
# Checks record_results.sh on a machine without a GPU, with stand-ins for the benchmark programs and
# nvidia-smi: both kinds of program folder, the suite's two passes (regimes only in the first), the
# record folder's files and README, the archive, a failing step, the case studies skipped where
# they were not built, --dry-run, and a bad command line.
set -uo pipefail
script=$(cd "$(dirname "$0")" && pwd)/record_results.sh
# shellcheck source=test_support.sh
source "$(dirname "$0")/test_support.sh"

mkdir -p "$work/path" "$work/stage/bin" "$work/stage/lib"
cat > "$work/path/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
echo "NVIDIA Stand-in GPU, 999.1, 700.00 W"
EOF
# The suite's stand-in: the benchmarks its filter selects out of a few, as Google Benchmark JSON,
# with the regimes' counters only under EGEMM_SUITE_REGIMES=1; STANDIN_SUITE_FAIL makes it fail.
cat > "$work/stage/bin/egemm_bench_suite" <<'EOF'
#!/usr/bin/env bash
echo "suite ${EGEMM_SUITE_REGIMES:-median} $*" >> "$STANDIN_CALLS"
[[ -n ${STANDIN_SUITE_FAIL:-} ]] && exit 1
for a in "$@"; do
  case $a in --benchmark_filter=*) filter=${a#*=} ;; --benchmark_out=*) out=${a#*=} ;; esac
done
entries=()
for inputs in uniform wide; do
  for method in egemm_EmulatedFP32 cublas_sgemm; do
    for n in 1024 8192; do
      name="$inputs/$method/${n}x${n}x${n}"
      grep -qE -- "$filter" <<< "$name/iterations:1/manual_time" || continue
      tf=$([[ $method == cublas_sgemm ]] && echo 50 || echo 200)
      regimes=$([[ ${EGEMM_SUITE_REGIMES:-} == 1 ]] && echo "\"TFLOPs_rested\": $((tf + 20)), \"TFLOPs_sustained\": $((tf - 5)),")
      entries+=("{\"name\": \"$name/iterations:1/manual_time\", \"run_type\": \"iteration\", \"M\": $n, \"N\": $n, \"K\": $n,
        \"TFLOPs\": $tf, $regimes \"rel_fro_err\": 2.5e-07, \"max_abs_err\": 1e-05, \"max_err_vs_sgemm\": 1e-04,
        \"nonfinite\": 0, \"thermal_slowdown\": 0, \"label\": \"$method\"}")
    done
  done
done
{ echo "{\"context\": {\"date\": \"2026-01-01T00:00:0${EGEMM_SUITE_REGIMES:-2}+00:00\"}, \"benchmarks\": ["
  (IFS=,; echo "${entries[*]}")
  echo "]}"; } > "$out"
EOF
cat > "$work/stage/bin/egemm_precision_profile" <<'EOF'
#!/usr/bin/env bash
echo "profile $*" >> "$STANDIN_CALLS"
cat <<'END'
# Tensor-core accumulation on a stand-in GPU, 4 trials

### mma.sync m16n8k16 FP16 -> FP32 (k = 16 per instruction)

| design | outputs | half arithmetic | model A | model B | bits vs exact: min / mean |
|---|---:|---:|---:|---:|---:|
| 2 products | 512 | 0.04% | 86.65% | 100.00% | 23.1 / 23.98 |
| 4 products | 512 | 0.01% | 64.41% | 100.00% | 16.1 / 23.95 |
END
EOF
cat > "$work/stage/bin/egemm_call_overhead" <<'EOF'
#!/usr/bin/env bash
echo "overhead $*" >> "$STANDIN_CALLS"
echo "call overhead at $*"
EOF
cat > "$work/kmeans" <<'EOF'
#!/usr/bin/env bash
echo "$(basename "$0") $*" >> "$STANDIN_CALLS"
args="$*"
csv=${args##*--csv }
[[ -f $csv ]] || echo "program,space,tag,points,queries,dims,groups,iters,total_s,gemm_s,fp32_total_s,fp32_gemm_s,speedup,gemm_speedup,differences,first_step_differences" > "$csv"
echo "$(basename "$0" | sed 's/egemm_//'),Cuda,EmulatedFP32,2048,0,128,64,10,0.001,0.0002,0.001,0.0002,1.0,1.0,0,0" >> "$csv"
EOF
chmod +x "$work/path/nvidia-smi" "$work/stage/bin/"* "$work/kmeans"
cp "$(dirname "$script")/../perf_tests/report.py" "$work/stage/"
export PATH=$work/path:$PATH STANDIN_CALLS=$work/calls

# A staged folder without the case studies.
: > "$STANDIN_CALLS"
EGEMM_COMMIT=abc1234 "$script" --no-plots --archive "$work/record.tar.gz" "$work/stage" "$work/rec1" > "$work/log1" 2>&1
check "staged folder: exit 0" test $? -eq 0
check "one progress line per step, with seconds" grep -qE '^\[ +[0-9]+ s\] suite, three regimes: ok in [0-9]+ s' "$work/log1"
check "the first suite pass with the regimes, the second without" \
  bash -c "grep '^suite' '$STANDIN_CALLS' | cut -d' ' -f2 | tr '\n' , | grep -qx '1,median,'"
check "the case studies skipped, saying why" grep -q '^\[ *[0-9]* s\] case studies: skipped' "$work/log1"
check "call overhead at its three shapes" \
  bash -c "grep '^overhead' '$STANDIN_CALLS' | tr '\n' , | grep -qx 'overhead 256 256 4096,overhead 512,overhead 1024,'"
check "the record folder's raw files, the passes merged into suite.json" \
  bash -c "cd '$work/rec1' && ls | tr '\n' , | grep -qx 'README.md,call_overhead.md,precision_profile.md,record.json,record.log,suite.json,'"
check "record.json: device, commit, command" \
  bash -c "grep -q 'NVIDIA Stand-in GPU' '$work/rec1/record.json' && grep -q abc1234 '$work/rec1/record.json' &&
           grep -q 'record_results.sh --archive record.tar.gz --no-plots' '$work/rec1/record.json'"
check "README: x SGEMM in the median table, the regimes at 8192^3 only" \
  bash -c "grep -qF '| egemm_EmulatedFP32 | 200 (4.00x) | 200 (4.00x) |' '$work/rec1/README.md' &&
           grep -A2 '^### Rested' '$work/rec1/README.md' | grep -qx '| method | 8192^3 |'"
check "README: wide inputs, precision profile summary, call overhead" \
  bash -c "grep -q '^## Wide inputs' '$work/rec1/README.md' && grep -qF '| model B | 16.1 |' '$work/rec1/README.md' &&
           grep -q 'call overhead at 256 256 4096' '$work/rec1/README.md'"
check "the short table at the end" grep -qE '^egemm_EmulatedFP32 +200 \(4.00x\) +220 \(3.14x\) +195 \(4.33x\)$' "$work/log1"
check "the archive holds the folder" bash -c "tar -tzf '$work/record.tar.gz' | grep -q '^rec1/README.md$'"
check "report.py record rebuilds the same README from the raw files" \
  bash -c "cp '$work/rec1/README.md' '$work/readme1' && python3 '$work/stage/report.py' record '$work/rec1' --no-plots > /dev/null &&
           cmp -s '$work/readme1' '$work/rec1/README.md'"

# A build directory with the case studies; the suite failing.
build=$work/build
mkdir -p "$build/perf_tests/gemm_suite" "$build/perf_tests/case_studies" "$build/perf_tests/precision_profile"
echo "CMAKE_HOME_DIRECTORY:INTERNAL=$work/nowhere" > "$build/CMakeCache.txt"
cp "$work/stage/bin/egemm_bench_suite" "$build/perf_tests/gemm_suite/"
cp "$work/stage/bin/egemm_call_overhead" "$build/perf_tests/"
cp "$work/stage/bin/egemm_precision_profile" "$build/perf_tests/precision_profile/"
cp "$work/kmeans" "$build/perf_tests/case_studies/egemm_kmeans"
cp "$work/kmeans" "$build/perf_tests/case_studies/egemm_knn"
: > "$STANDIN_CALLS"
"$script" --no-plots "$build" "$work/rec2" > "$work/log2" 2>&1
check "build directory: exit 0" test $? -eq 0
check "the case studies' CSV and table" \
  bash -c "test \$(wc -l < '$work/rec2/case_studies.csv') -eq 3 && grep -q '^| knn (Cuda) | EmulatedFP32 | 2048 |' '$work/rec2/README.md'"
STANDIN_SUITE_FAIL=1 "$script" --no-plots "$build" "$work/rec3" > "$work/log3" 2>&1
check "a failing suite fails the script" test $? -eq 1
check "and says so" grep -q 'suite, three regimes: FAILED (exit 1)' "$work/log3"

# A benchmark in both passes keeps the entry timed in the regimes, though the median pass came later.
entry() {  # entry TFLOPS [REGIMES_FIELDS]
  echo "{\"name\": \"uniform/egemm_EmulatedFP32/64x64x64/iterations:1/manual_time\", \"run_type\": \"iteration\",
    \"M\": 64, \"N\": 64, \"K\": 64, \"TFLOPs\": $1, ${2:-} \"label\": \"egemm_EmulatedFP32\"}"
}
echo "{\"context\": {\"date\": \"d1\"}, \"benchmarks\": [$(entry 10 '"TFLOPs_rested": 11, "TFLOPs_sustained": 9,')]}" > "$work/regimes.json"
echo "{\"context\": {\"date\": \"d2\"}, \"benchmarks\": [$(entry 12)]}" > "$work/median.json"
python3 "$work/stage/report.py" merge "$work/regimes.json" "$work/median.json" --out "$work/merged.json" > /dev/null
check "merge: a benchmark timed in both passes keeps its regimes" \
  python3 -c "import json, sys; b = json.load(open(sys.argv[1]))['benchmarks']; sys.exit(not (len(b) == 1 and b[0]['TFLOPs_sustained'] == 9))" "$work/merged.json"

: > "$STANDIN_CALLS"
"$script" --dry-run "$work/stage" "$work/rec4" > "$work/log4" 2>&1
check "--dry-run: exit 0, the commands printed, nothing run or written" \
  bash -c "grep -q '^suite, three regimes: env EGEMM_SUITE_FP64=1 EGEMM_SUITE_REGIMES=1 ' '$work/log4' && test ! -s '$STANDIN_CALLS' && test ! -e '$work/rec4'"
"$script" "$work/stage" > "$work/log5" 2>&1
check "one argument: exit 2 with the usage" bash -c "test $? -eq 2 && grep -q '^usage:' '$work/log5'"
"$script" "$work/nowhere" "$work/rec5" > "$work/log6" 2>&1
check "no such program folder: exit 2" test $? -eq 2

(( failures == 0 )) || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
