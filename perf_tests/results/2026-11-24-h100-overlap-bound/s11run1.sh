#!/usr/bin/env bash
# Session 11 run 1: the host's time in each step of a 1024^3 hand-off to SGEMM, warm and after
# 0.25 s idle (experiment host_steps.cu), then call_overhead at 1024^3 for the same machine.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
nproc; grep -m1 "model name" /proc/cpuinfo; cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor 2>/dev/null
../exp/host_steps 15 | tee $OUT/host-steps.md
bin/egemm_call_overhead 1024 | tee $OUT/call-overhead.md
../exp/host_steps 15 | tee $OUT/host-steps-2.md
