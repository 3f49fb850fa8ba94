#!/usr/bin/env bash
# Session 24, run 1 (main at 287b58b, two H100s): every GPU check (run_device_checks.sh tests: every
# CUDA test with the multi-device ones, reset tests, Kokkos tests, demo, precision profile), then
# compute-sanitizer synccheck and initcheck over every kernel and split (the sanitize mode's default filter).
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
export OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv > /tmp/device.txt
SANITIZE_TOOLS="synccheck initcheck" SANITIZE_TIMEOUT_S=200 ./run_device_checks.sh tests sanitize
echo "run_device_checks.sh tests sanitize: exit $?" | tee -a "$OUT/summary.txt"
cp /tmp/device.txt "$OUT/"
cd "$OUT" && tar -czf logs.tar.gz *.log && rm -f *.log
