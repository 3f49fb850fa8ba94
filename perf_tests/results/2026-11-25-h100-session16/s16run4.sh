#!/usr/bin/env bash
# Session 16 run 4: the speed of an INT8 Hopper kernel, bracketed. lib-int8-N/ is the library
# built with -DEGEMM_INT8_SPEED_EXPERIMENT=N (int8-speed-experiment.patch): EmulatedFP32's Hopper
# kernel issues six INT8 wgmma products of the same piece bytes into three int32 sums instead
# of its three FP16 products (results meaningless, speed only). N = 2: 64 INT8
# values a k-tile, 4 bytes of pieces a value (as FP16 hi + lo now; the design needs 3):
# pessimistic, same call shape. N = 4: 128 values a k-tile, 2 bytes a value:
# optimistic; an emulated n^3 product is then the call (n, n, n/2). Sustained timing, cuBLAS
# SGEMM in the same process; the unmodified library before and after.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run4-device.txt; date -u | tee -a $OUT/run4-device.txt
cuobjdump --dump-sass lib-int8-4/libegemm.so.0.1.0 2>/dev/null | grep -oE "IGMMA\.[A-Z0-9.]*|HGMMA\.[A-Z0-9.]*" | sort | uniq -c | tee $OUT/run4-int8-sass.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run4-smi.csv &
SMI=$!
run() {  # label lib unused n k
  echo "=== $1 (start $(date +%s.%N))"
  LD_LIBRARY_PATH=$PWD/$2 timeout 120 bin/int8_emulation_cublas $4 uniform egemm $5 | grep -E "^\| (cuBLAS|EGEMM)"
  echo "exit ${PIPESTATUS[0]} (end $(date +%s.%N))"
}
{
for n in 8192 4096; do
  run "library as is, $n^3" lib - $n $n
  run "INT8 x6, 2 slices (4 B a value), $n^3" lib-int8-2 - $n $n
  run "INT8 x6, 4 slices (2 B a value), $n x $n x $((n / 2)) = emulated $n^3" lib-int8-4 - $n $((n / 2))
  run "library as is, $n^3, again" lib - $n $n
done
} 2>&1 | tee $OUT/run4-int8-kernel.md
kill $SMI
