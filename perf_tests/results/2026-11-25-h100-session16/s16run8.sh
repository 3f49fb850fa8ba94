#!/usr/bin/env bash
# Session 16 run 8: the SASS of the INT8 speed-experiment kernel (two sums, 4 slices), 128x128x3 single block.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
export PATH=$PATH:/usr/local/cuda/bin
k='_ZN5egemm4cuda6hopper21tma_wgmma_gemm_kernelINS_12EmulatedFP32ENS1_8Sm90TileILi2ELi128ELi128ELi3ELi1ELi1ELi2EEEEEv14CUtensorMap_stS6_S6_S6_S6_NS0_15FusedGemmParamsENS1_11StreamKArgsE'
cuobjdump --dump-sass --function "$k" lib-int8-4/libegemm.so.0.1.0 > $OUT/run8-int8-kernel.sass 2>&1
cuobjdump --dump-sass --function "$k" lib/libegemm.so.0.1.0 > $OUT/run8-fp16-kernel.sass 2>&1
for f in $OUT/run8-*.sass; do echo "$f: $(wc -l < $f) lines, $(grep -c GMMA $f) GMMA, $(grep -c 'WARPGROUP' $f) WARPGROUP"; done
grep -nE "GMMA|WARPGROUP|WARPSYNC|BRA|SYNCS|LDL|STL" $OUT/run8-int8-kernel.sass | head -80
