#!/usr/bin/env bash
# Session 16 run 1: (a) the library at a045d49 (EGEMM_FAULT_LAUNCH=0 as "none",
# the shared fused-kernel list in the tests): every GPU check; (b) joules per
# multiply-add of wgmma on FP16, INT8 (s8 x s8, u8 x s8) and FP8 e4m3 operands
# under the 700 W cap, SM clock and board power sampled every 100 ms.
cd "$(dirname "$0")/main"
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader | tee $OUT/run1-device.txt; date -u | tee -a $OUT/run1-device.txt
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_int8_energy.cu -o /tmp/wie > $OUT/run1-energy-build.txt 2>&1 || { cat $OUT/run1-energy-build.txt; }
cuobjdump --dump-sass /tmp/wie 2>/dev/null | grep -oE "(HGMMA|IGMMA|QGMMA)\.[A-Z0-9.]*" | sort | uniq -c >> $OUT/run1-energy-build.txt
cat $OUT/run1-energy-build.txt
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 100 > $OUT/run1-smi.csv &
SMI=$!
sleep 1
/tmp/wie 4 3 | tee $OUT/run1-energy.csv
kill $SMI
python3 phase_clocks.py $OUT/run1-smi.csv $OUT/run1-energy.csv | tee $OUT/run1-energy-table.md
t0=$SECONDS
OUT=$OUT/checks PROFILE_TRIALS=100 bash run_device_checks.sh tests > /dev/null 2>&1
echo "checks: exit $? in $((SECONDS - t0)) s"
cat $OUT/checks/summary.txt
grep -E "Failure" -A8 $OUT/checks/egemm_cuda_tests.log | head -30
grep -E "^\[ accuracy \]" $OUT/checks/egemm_cuda_tests.log > $OUT/checks/accuracy-lines.txt
rm -f $OUT/checks/egemm_cuda_tests.log $OUT/checks/egemm_kokkos_tests.log $OUT/checks/egemm_cuda_reset_tests.log
