#!/usr/bin/env bash
# Session 13 run 6: can the reset test's memory check fail? The same test binary on a library whose
# pool is made again per context (lib-context-pool: Lifetime::context for the pool, built only for
# this run) and on the library as committed (lib: Lifetime::process).
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in lib-context-pool lib; do
  LD_LIBRARY_PATH=$PWD/$lib bin/egemm_cuda_reset_tests --gtest_color=no > $OUT/reset-tests-$lib.log 2>&1
  echo "reset tests on $lib: exit $?"
  grep -E "^\[  (PASSED|FAILED) \]|Failure|free device memory" -A2 $OUT/reset-tests-$lib.log | head -12
done
