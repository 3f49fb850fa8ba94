#!/usr/bin/env bash
# Session 14 run 3: unread_error.cu built against the shared CUDA runtime (the instance libegemm
# uses: run 1's build linked the runtime statically, whose last-error slot is its own, so the
# library never saw the error), on the library before the fixes (832af24) and after.
cd "$(dirname "$0")/main"
tar xJf lib-before.tar.xz
nvidia-smi --query-gpu=name,serial,driver_version,power.limit --format=csv,noheader; date -u
for lib in lib-before lib; do
  echo "## unread_error, $lib"; LD_LIBRARY_PATH=$PWD/$lib bin/unread_error; echo "exit $?"
done 2>&1 | tee $OUT/unread-error.txt
