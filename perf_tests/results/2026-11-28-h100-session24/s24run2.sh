#!/usr/bin/env bash
# Session 24, run 2 (main at 287b58b): compute-sanitizer racecheck over every kernel and split
# (the sanitize mode's default filter: the size sweeps left out), the first full pass since session 20.
set -u
cd "$(dirname "$0")"
[[ -f lib/libegemm.so.0.1.0.xz ]] && xz -d lib/libegemm.so.0.1.0.xz
export OUT=${OUT:-$PWD/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv > /tmp/device.txt
SANITIZE_TOOLS=racecheck SANITIZE_TIMEOUT_S=540 ./run_device_checks.sh sanitize
echo "run_device_checks.sh sanitize: exit $?" | tee -a "$OUT/summary.txt"
grep -c '^\[       OK \]' "$OUT/sanitize-racecheck.log" | sed 's/^/tests passed under racecheck: /' | tee -a "$OUT/summary.txt"
tail -n 3 "$OUT/sanitize-racecheck.log" | tee -a "$OUT/summary.txt"
cp /tmp/device.txt "$OUT/"
cd "$OUT" && xz -T4 sanitize-racecheck.log
