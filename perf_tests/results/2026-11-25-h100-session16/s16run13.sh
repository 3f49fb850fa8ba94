#!/usr/bin/env bash
# Session 16 run 13: the INT8 speed experiment nearest the design's traffic: lib-int8-3 takes
# 96 INT8 values from each 128-byte k-tile row (three 32-byte slices a product), so 2.67 bytes of
# pieces a value (the design: 3) and a split of 2.67 bytes written per emulated value (the design:
# 3). A call (n, n, k) then stands for the emulated (n, n, 1.5 k); the library (FP16 x3) runs that
# emulated shape itself. Six INT8 products into three int32 sums, results meaningless, speed only.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial,driver_version,power.limit,temperature.gpu --format=csv,noheader | tee $OUT/run13-device.txt; date -u | tee -a $OUT/run13-device.txt
run() {  # label lib tile n k
  echo "=== $1 (start $(date +%s.%N))"
  env ${3:+EGEMM_SM90_TILE=$3} LD_LIBRARY_PATH=$PWD/$2 timeout 150 bin/int8_emulation_cublas $4 uniform egemm $5 | grep -E "^\| (cuBLAS|EGEMM)|what"
  echo "exit ${PIPESTATUS[0]} (end $(date +%s.%N))"
}
{
for nk in "8192 5504" "4096 2752" "4096 5504" "16384 10944"; do
  set -- $nk; n=$1; k=$2; K=$((k * 3 / 2))
  run "FP16 x3 (the library), the model's tile, $n x $n x $K" lib "" $n $K
  run "INT8 x6, 2.67 B a value, the model's tile, $n x $n x $k = emulated $n x $n x $K" lib-int8-3 "" $n $k
  run "INT8 x6, 2.67 B a value, 128x128x3, $n x $n x $k = emulated $n x $n x $K" lib-int8-3 128x128x3 $n $k
done
} 2>&1 | tee $OUT/run13-int8-kernel.md
nvidia-smi --query-gpu=temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.hw_thermal_slowdown --format=csv
