#!/usr/bin/env bash
# Session 15 run 8: a second round of device-code mutants (R1-R7: scale_c, the device path word,
# the cp.async kernel's fold, the Hopper TF32 fold, the crossover, stream-K partials, the resplit),
# each under the CUDA tests as in run 5 (fail-fast, the same filter; the test binary has run 6's
# widened accuracy test); first the clean library under the same filter. The logs go into one
# file (the device tool returns only a few).
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
FILTER='-CudaLargeOperands.*:CudaOutOfMemory.*:CudaMultiDevice.*:CudaLargeLeadingDimension.*:CudaStreamSemantics*'
mkdir -p /tmp/mut && tar -xJf mutants.tar.xz -C /tmp/mut
run() {  # name, library folder
  local t0=$SECONDS
  LD_LIBRARY_PATH=$2 timeout 400 main/bin/egemm_cuda_tests --gtest_color=no --gtest_brief=1 --gtest_fail_fast --gtest_filter="$FILTER" > $OUT/$1.log 2>&1
  local rc=$?
  local failed=$(grep -E "^\[  FAILED  \] [A-Za-z]" $OUT/$1.log | head -1 | sed 's/^\[  FAILED  \] //; s/ (.*//')
  local passed=$(grep -E "^\[  PASSED  \]" $OUT/$1.log | sed 's/^\[  PASSED  \] //')
  printf '| %s | %d | %s | %s | %d s |\n' "$1" $rc "${failed:-—}" "${passed:-—}" $((SECONDS - t0)) | tee -a $OUT/mutants.md
}
echo "| library | exit | first failing test | passed | time |" | tee $OUT/mutants.md
echo "|---|---:|---|---|---:|" | tee -a $OUT/mutants.md
run clean $PWD/main/lib
for d in /tmp/mut/*/; do
  name=$(basename $d); ( cd $d && ln -sf $name.so libegemm.so.0.1 && ln -sf libegemm.so.0.1 libegemm.so )
  run $name $d
done
# The failure messages of each killed mutant (first few lines), for the record.
for f in $OUT/R*.log; do echo "== $(basename $f .log)"; grep -E "Failure|error|Expected|Which is|bound|differ" $f | head -6; done > $OUT/mutant-failures.txt
for f in $OUT/clean.log $OUT/R*.log; do echo "===== $(basename $f .log)"; cat $f; done > $OUT/all-logs.txt && rm -f $OUT/clean.log $OUT/R*.log
