#!/usr/bin/env bash
# Session 17 run 14: the demo with its Int8Slices row, on Kokkos::Cuda, at 1024 and 4096.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,serial --format=csv,noheader | tee $OUT/device.txt; date -u | tee -a $OUT/device.txt
{ bin/egemm_demo 1024; echo "exit $?"; bin/egemm_demo 4096; echo "exit $?"; } 2>&1 | tee $OUT/demo.txt
