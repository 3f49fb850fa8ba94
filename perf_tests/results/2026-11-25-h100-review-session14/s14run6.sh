#!/usr/bin/env bash
# Session 14 run 6: the case studies after their timing fix (59a4573: no View allocated inside
# the timed loop). kMeans and kNN at d = 1024 (the README's configuration) and 65536 points.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
timeout 200 bin/egemm_kmeans --tag EmulatedFP32 --points 65536 --dims 1024 --clusters 64 --iters 10 2>&1 | tee $OUT/kmeans.txt
echo "kmeans: exit ${PIPESTATUS[0]}"
timeout 200 bin/egemm_knn --tag EmulatedFP32 --points 65536 --dims 1024 --queries 4096 --k 16 2>&1 | tee $OUT/knn.txt
echo "knn: exit ${PIPESTATUS[0]}"
