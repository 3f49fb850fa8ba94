#!/usr/bin/env bash
# Checks run_device_checks.sh's command line on a machine without a GPU, with
# stand-ins for the test binary, nvidia-smi and compute-sanitizer: modes run
# in the order given, TESTS_FILTER reaches the tests, a failing step fails
# the script, and a bad mode is refused before anything runs.
set -uo pipefail
script=$(cd "$(dirname "$0")" && pwd)/run_device_checks.sh
# shellcheck source=test_support.sh
source "$(dirname "$0")/test_support.sh"

stage=$work/stage
mkdir -p "$stage/bin" "$work/path"
cp "$script" "$stage/"
# The test binary's stand-in: records its arguments, prints what GoogleTest
# would, and fails when STANDIN_FAIL is set.
cat > "$stage/bin/egemm_cuda_tests" <<'EOF'
#!/usr/bin/env bash
echo "$*" >> "$STANDIN_CALLS"
echo "[==========] 1 tests from 1 test suite ran. (1 ms total)"
[[ -n ${STANDIN_FAIL:-} ]] && { echo "[  FAILED  ] 1 test"; exit 1; }
echo "[  PASSED  ] 1 tests."
EOF
cat > "$work/path/nvidia-smi" <<'EOF'
#!/usr/bin/env bash
echo "stand-in GPU, 0.0, 0 MHz, 0 MHz"
EOF
cat > "$work/path/compute-sanitizer" <<'EOF'
#!/usr/bin/env bash
echo "sanitizer $*" >> "$STANDIN_CALLS"
shift 6  # --tool T --report-api-errors no --error-exitcode 86: the binary and its arguments follow
"$@"
echo "========= ERROR SUMMARY: 0 errors"
EOF
chmod +x "$stage/bin/egemm_cuda_tests" "$work/path/nvidia-smi" "$work/path/compute-sanitizer"
export PATH=$work/path:$PATH STANDIN_CALLS=$work/calls

: > "$STANDIN_CALLS"
OUT=$work/out1 TESTS_FILTER='CudaNormwiseFP32.*' SANITIZE_FILTER='CudaSplit.*' SANITIZE_TOOLS=memcheck \
  "$stage/run_device_checks.sh" tests sanitize > "$work/log1" 2>&1
check "tests then sanitize: exit 0" test $? -eq 0
check "TESTS_FILTER reaches the tests, first" \
  grep -q -- "^--gtest_color=no --gtest_filter=CudaNormwiseFP32\.\*$" <(head -1 "$STANDIN_CALLS")
check "the sanitizer runs second, on SANITIZE_FILTER" \
  grep -q -- "^sanitizer --tool memcheck .*--gtest_filter=CudaSplit\.\*$" <(sed -n 2p "$STANDIN_CALLS")
check "both verdicts in the summary, in order" \
  bash -c "grep -E '^(egemm_cuda_tests|compute-sanitizer --tool memcheck): exit 0' '$work/out1/summary.txt' |
           cut -d: -f1 | tr '\n' , | grep -qx 'egemm_cuda_tests,compute-sanitizer --tool memcheck,'"

: > "$STANDIN_CALLS"
OUT=$work/out2 TESTS_FILTER='Cuda*' STANDIN_FAIL=1 "$stage/run_device_checks.sh" tests > "$work/log2" 2>&1
check "a failing test run fails the script" test $? -ne 0
check "and says so in the summary" grep -q '^egemm_cuda_tests: exit 1' "$work/out2/summary.txt"

: > "$STANDIN_CALLS"
OUT=$work/out3 "$stage/run_device_checks.sh" tests bogus > "$work/log3" 2>&1
check "a bad mode is refused with exit 2" test $? -eq 2
check "before anything runs" test ! -s "$STANDIN_CALLS"
OUT=$work/out4 "$stage/run_device_checks.sh" > "$work/log4" 2>&1
check "no mode: exit 2 with the usage" bash -c "test $? -eq 2 && grep -q '^usage:' '$work/log4'"

# The call timeline's stand-in records its arguments; the plot is a no-op.
cat > "$stage/bin/egemm_call_timeline" <<'EOF'
#!/usr/bin/env bash
echo "timeline $*" >> "$STANDIN_CALLS"
EOF
chmod +x "$stage/bin/egemm_call_timeline"
: > "$stage/plot_call_timeline.py"
: > "$STANDIN_CALLS"
OUT=$work/out5 "$stage/run_device_checks.sh" timeline > "$work/log5" 2>&1
check "timeline: exit 0" test $? -eq 0
check "timeline: dependent launches, then plain ones (--plain-launches)" \
  bash -c "sed -n 1p '$STANDIN_CALLS' | grep -qv -- '--plain-launches' && sed -n 2p '$STANDIN_CALLS' | grep -q -- '--plain-launches$'"

(( failures == 0 )) || { echo "$failures check(s) failed"; exit 1; }
echo "all checks passed"
