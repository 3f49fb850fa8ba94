#!/usr/bin/env bash
# Session 15 run 5: can the GPU tests fail? Ten device-code mutants of libegemm (one plausible
# bug each: split, Hopper accumulators and fold, mma.sync fold, stream-K fixup, special-value
# pass, wide rows, TMA loads, beta = 0, column scaling), each run under the CUDA tests (the
# plumbing suites that need 39 GB or hold streams shut are left out) with --gtest_fail_fast:
# the first failing test is the mutant's killer. First the clean library under the same filter,
# and the Kokkos tests on Kokkos::Cuda (the new front-end tests).
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
for f in $OUT/M*.log; do echo "== $(basename $f .log)"; grep -E "Failure|error|Expected|Which is|bound|differ" $f | head -6; done > $OUT/mutant-failures.txt
t0=$SECONDS
LD_LIBRARY_PATH=$PWD/main/lib main/bin/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos.log 2>&1
echo "egemm_kokkos_tests: exit $? in $((SECONDS - t0)) s"
grep -E "^\[==========\]|^\[  PASSED  \]|^\[  FAILED  \]|^\[  SKIPPED \]" $OUT/kokkos.log | tee $OUT/kokkos-summary.txt
grep -E "Failure" -A6 $OUT/kokkos.log | head -20
