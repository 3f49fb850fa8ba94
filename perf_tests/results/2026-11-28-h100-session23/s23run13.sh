#!/usr/bin/env bash
# Session 23, run 13 (the session's last library, 3ba3a40's code): memcheck over every kernel and split
# (run_device_checks.sh sanitize's default filter), after NormwiseFP32's and the debug log's tests,
# in one call of run_device_checks.sh's new multi-mode form.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
export OUT=${OUT:-$PWD/out}
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv > /tmp/device.txt
TESTS_FILTER='CudaNormwiseFP32.*:CudaDebugLog.*' SANITIZE_TOOLS=memcheck SANITIZE_TIMEOUT_S=200 \
  ./run_device_checks.sh tests sanitize
echo "run_device_checks.sh tests sanitize: exit $?"
cp /tmp/device.txt "$OUT/"
