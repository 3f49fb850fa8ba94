#!/usr/bin/env bash
# Session 16 run 11: run 10's pessimistic INT8 bracket (lib-int8-2: six INT8 products loading
# 4 bytes of pieces a value, the present split) against the library on 4096 x 4096 x 8192
# (issue #5's (N, N, 2N) at N = 4096) and 16384^3, tile forced to 128x128x3 and the model's pick.
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run11-device.txt; date -u | tee -a $OUT/run11-device.txt
run() {  # label lib tile n k
  echo "=== $1 (start $(date +%s.%N))"
  env ${3:+EGEMM_SM90_TILE=$3} LD_LIBRARY_PATH=$PWD/$2 timeout 150 bin/int8_emulation_cublas $4 uniform egemm $5 | grep -E "^\| (cuBLAS|EGEMM)|what"
  echo "exit ${PIPESTATUS[0]} (end $(date +%s.%N))"
}
{
  run "FP16 x3 (the library), the model's tile, 4096 x 4096 x 8192" lib "" 4096 8192
  run "FP16 x3 (the library), 128x128x3, 4096 x 4096 x 8192" lib 128x128x3 4096 8192
  run "INT8 x6, 4 B a value, 128x128x3, 4096 x 4096 x 8192" lib-int8-2 128x128x3 4096 8192
  run "FP16 x3 (the library), the model's tile, 16384^3" lib "" 16384 16384
  run "INT8 x6, 4 B a value, 128x128x3, 16384^3" lib-int8-2 128x128x3 16384 16384
} 2>&1 | tee $OUT/run11-int8-kernel.md
nvidia-smi --query-gpu=temperature.gpu,clocks_event_reasons.active,clocks_event_reasons.hw_thermal_slowdown --format=csv
