#!/usr/bin/env bash
# Session 15 run 10: a third round of mutants, W1-W6, in the CUDA backend's host code (the stream
# cuBLAS runs on, its transposes, the relaxed capture mode of the one-time set-up, page-locked
# memory's kind, a reset's detection, a launch's status), each under every CUDA test and the
# reset tests with --gtest_fail_fast (run 9 passed both on the clean library). Logs into one file.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
mkdir -p /tmp/mut && tar -xJf mutants.tar.xz -C /tmp/mut
run() {  # name, library folder, test binary
  local t0=$SECONDS log=$OUT/$1-$3.log
  LD_LIBRARY_PATH=$2 timeout 280 main/bin/$3 --gtest_color=no --gtest_brief=1 --gtest_fail_fast > $log 2>&1
  local rc=$?
  local failed=$(grep -E "^\[  FAILED  \] [A-Za-z]" $log | head -1 | sed 's/^\[  FAILED  \] //; s/ (.*//')
  local passed=$(grep -E "^\[  PASSED  \]" $log | sed 's/^\[  PASSED  \] //')
  printf '| %s | %s | %d | %s | %s | %d s |\n' "$1" "$3" $rc "${failed:-—}" "${passed:-—}" $((SECONDS - t0)) | tee -a $OUT/mutants.md
}
echo "| library | tests | exit | first failing test | passed | time |" | tee $OUT/mutants.md
echo "|---|---|---:|---|---|---:|" | tee -a $OUT/mutants.md
for d in /tmp/mut/*/; do
  name=$(basename $d); ( cd $d && ln -sf $name.so libegemm.so.0.1 && ln -sf libegemm.so.0.1 libegemm.so )
  run $name $d egemm_cuda_tests
  run $name $d egemm_cuda_reset_tests
done
for f in $OUT/W*.log; do echo "===== $(basename $f .log)"; grep -vE "^\[ +(RUN|OK) +\]" $f | head -60; done > $OUT/all-logs.txt && rm -f $OUT/W*.log
