#!/usr/bin/env bash
# Session 7 run 13: base pointers off a 16-byte boundary, k == 0 / alpha == 0 on the device, every policy;
# the Kokkos tests (the subview now starts off a 16-byte boundary)
cd "$(dirname "$0")/main" && export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
timeout 200 bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaGemm/*.BasePointersOffFromSixteenBytes:CudaGemm/*.KZeroOrAlphaZeroScalesCWithoutReadingAOrB' > $OUT/tests.log 2>&1; echo "cuda rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/tests.log | head -20
timeout 100 bin/egemm_kokkos_tests --gtest_color=no > $OUT/kokkos.log 2>&1; echo "kokkos rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[==========\]|Failure" $OUT/kokkos.log | head -20
