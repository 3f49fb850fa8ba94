#!/usr/bin/env bash
# Session 16 run 5: where the INT8 speed-experiment library faults (compute-sanitizer memcheck, one call).
cd "$(dirname "$0")/main"
tar xJf int8-libs.tar.xz
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial --format=csv,noheader; date -u
EGEMM_SMALL_GEMM_FALLBACK=0 EGEMM_SM90_CLUSTER=1 LD_LIBRARY_PATH=$PWD/lib-int8-4 EGEMM_LOG=debug timeout 200 compute-sanitizer --tool memcheck --print-limit 5 bin/int8_emulation_cublas 2048 uniform egemm 1024 2>&1 | head -60
