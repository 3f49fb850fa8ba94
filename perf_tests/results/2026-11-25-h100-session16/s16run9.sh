#!/usr/bin/env bash
# Session 16 run 9: the speed of an INT8 Hopper kernel, bracketed (int8-speed-experiment.patch, with
# the accumulate flags right: runs 4-7 ran a build whose flags were inverted, so ptxas dropped two
# thirds of its products as dead). lib-int8-N: EmulatedFP32's Hopper kernel issues six INT8 wgmma
# products of the same piece bytes into three int32 sums (results meaningless, speed only);
# N = 2: 64 INT8 values a k-tile, 4 bytes of pieces a value (as FP16 hi + lo; the design needs 3):
# pessimistic, same call; N = 4: 128 values a k-tile, 2 bytes a value: optimistic, an emulated
# n^3 is the call (n, n, n/2). The tile forced to 128x128x3 (the INT8 build spills 204 bytes in the
# cluster tile the model picks, none in this one), and the model's pick. Sustained timing.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run9-device.txt; date -u | tee -a $OUT/run9-device.txt
k='_ZN5egemm4cuda6hopper21tma_wgmma_gemm_kernelINS_12EmulatedFP32ENS1_8Sm90TileILi2ELi128ELi128ELi3ELi1ELi1ELi2EEEEEv14CUtensorMap_stS6_S6_S6_S6_NS0_15FusedGemmParamsENS1_11StreamKArgsE'
for l in lib-int8-4 lib-int8-2; do echo "$l 128x128x3 kernel: $(cuobjdump --dump-sass --function "$k" $l/libegemm.so.0.1.0 | grep -c IGMMA) IGMMA, $(cuobjdump --dump-sass --function "$k" $l/libegemm.so.0.1.0 | grep -cE 'LDL|STL') LDL/STL"; done | tee $OUT/run9-sass.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run9-smi.csv &
SMI=$!
run() {  # label lib tile n k
  echo "=== $1 (start $(date +%s.%N))"
  env ${3:+EGEMM_SM90_TILE=$3} LD_LIBRARY_PATH=$PWD/$2 timeout 120 bin/int8_emulation_cublas $4 uniform egemm $5 | grep -E "^\| (cuBLAS|EGEMM)|what"
  echo "exit ${PIPESTATUS[0]} (end $(date +%s.%N))"
}
{
for n in 8192 4096; do
  run "FP16 x3 (the library), 128x128x3, $n^3" lib 128x128x3 $n $n
  run "INT8 x6, 4 B a value, 128x128x3, $n^3" lib-int8-2 128x128x3 $n $n
  run "INT8 x6, 2 B a value, 128x128x3, $n x $n x $((n / 2)) = emulated $n^3" lib-int8-4 128x128x3 $n $((n / 2))
  run "FP16 x3 (the library), the model's tile, $n^3" lib "" $n $n
  run "INT8 x6, 2 B a value, the model's tile, $n x $n x $((n / 2))" lib-int8-4 "" $n $((n / 2))
done
} 2>&1 | tee $OUT/run9-int8-kernel.md
kill $SMI
