#!/usr/bin/env bash
# Session 9 run 6: the single block (128x128x3) against the model's pick (the pair, 128x128x3c2)
# where m or n is 4096, in the whole call: 200 calls queued back to back (the power cap holds
# throughout) and single synchronised calls (egemm_call_overhead), forced by EGEMM_SM90_TILE,
# two rounds alternating; 8192^3 as the shape where the pair wins.
cd "$(dirname "$0")/main"
export LD_LIBRARY_PATH=$PWD/lib
nvidia-smi --query-gpu=name,serial,power.limit --format=csv,noheader; date -u
for shape in "4096 4096 4096" "4096 4096 8192" "16384 4096 4096" "8192 8192 8192"; do
  for round in 1 2; do
    for tile in 128x128x3 128x128x3c2; do
      EGEMM_SM90_TILE=$tile timeout 120 bin/egemm_call_overhead $shape > $OUT/overhead.txt 2>&1
      echo "$shape $tile r$round: $(grep -E "EmulatedFP32" $OUT/overhead.txt | head -1)"
      cat $OUT/overhead.txt >> $OUT/all.txt
    done
  done
done
head -20 $OUT/overhead.txt
cd $OUT && tar czf run6.tgz all.txt && rm -f all.txt overhead.txt
