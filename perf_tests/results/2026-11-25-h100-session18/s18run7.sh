#!/usr/bin/env bash
# Session 18 run 7: the lagged split with both panels' reads in flight at once
# (where both come in 16-byte quads: the written panel's values do not wait
# for its row panel, only its exponent does) against 0277fe3's (lib_seq: the
# gather's read, then the write's): the Int8Slices tests, the split kernel's
# time on three shapes (two rounds, alternating), the suite on the shapes it matters for.
cd "$(dirname "$0")/main"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
bin/egemm_cuda_tests --gtest_color=no --gtest_filter='CudaInt8Slices.*:CudaGemm/Int8Slices*:*Int8*:CudaSplit*' > $OUT/int8_tests.log 2>&1
echo "int8 tests: exit $?"; grep -E "^\[  (PASSED|FAILED) |Failure" -A3 $OUT/int8_tests.log | head -12
for round in 1 2; do for v in overlap sequential; do
  lib=$PWD/lib; [[ $v == sequential ]] && lib=$PWD/lib_seq
  LD_LIBRARY_PATH=$lib:$PWD/lib EGEMM_DEPENDENT_LAUNCH=0 bin/egemm_call_timeline --shapes 8192x8192x8192,4096x4096x8192,16384x16384x16384 --policies Int8Slices --calls 3 2>/dev/null \
    | grep -E "lagged_split_kernel" | awk -F'|' -v r=$round -v v=$v '{print "round", r, v, $6}' | tee -a $OUT/timeline.txt
done; done
for v in overlap sequential; do
  lib=$PWD/lib; [[ $v == sequential ]] && lib=$PWD/lib_seq
  LD_LIBRARY_PATH=$lib:$PWD/lib bin/egemm_bench_suite --benchmark_filter='uniform/(egemm_Int8Slices|cublas_sgemm)/(8192x8192x8192|4096x4096x8192|16384x4096x4096)' 2>/dev/null \
    | grep -oE "^uniform/[a-zA-Z_0-9]+/[0-9x]+|TFLOPs=[0-9.]+" | paste - - | sed "s/^/$v /" | tee -a $OUT/ab.txt
done
