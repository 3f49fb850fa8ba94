#!/usr/bin/env bash
# Copies the programs a GPU run needs out of a build directory into a small
# folder that can be copied to a remote GPU machine: executables, libegemm,
# the driver scripts (run_device_checks.sh, record_results.sh), the report
# scripts, and the library's commit (STAGE_DIR/commit, stated in records).
# Object files stay behind.
#   scripts/stage_device_run.sh BUILD_DIR STAGE_DIR
# STAGE_BASELINE=BUILD_DIR2 also copies that build's libegemm into
# STAGE_DIR/baseline, for run_device_checks.sh ab (the same programs against
# the other library: build the baseline from the commit to compare against).
# STAGE_SYSTEM_LIBS=1 also copies the distribution's libraries the programs
# link beyond glibc, libstdc++ and CUDA's (Debian's Kokkos and its BLAS,
# LAPACK and Fortran runtime: ~18 MB), for a GPU machine whose image lacks
# them (the demo and the Kokkos programs do not start without them).
set -euo pipefail
build=${1:?build dir}
stage=${2:?stage dir}
[[ -f $build/CMakeCache.txt ]] || { echo "$build is not a CMake build directory" >&2; exit 2; }
[[ $(realpath -m "$stage") != $(realpath -m "$build") && $(realpath -m "$stage") != $(realpath -m "$build")/* ]] ||
  { echo "the stage directory must lie outside the build directory" >&2; exit 2; }
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
cp -P "$build"/src/libegemm.* "$stage/lib/" 2>/dev/null || true  # none for a static libegemm
if [[ -n ${STAGE_BASELINE:-} ]]; then
  ls "$STAGE_BASELINE"/src/libegemm.so.* > /dev/null 2>&1 ||
    { echo "STAGE_BASELINE=$STAGE_BASELINE: no shared libegemm in its src/" >&2; exit 2; }
  mkdir -p "$stage/baseline"
  cp -P "$STAGE_BASELINE"/src/libegemm.so* "$stage/baseline/"
fi
# Google Benchmark's shared library, in case the GPU machine lacks it.
cp -L /usr/lib/x86_64-linux-gnu/libbenchmark.so.1debian "$stage/lib/" 2>/dev/null || true
# CUPTI, for the call timelines, in case the GPU machine's CUDA lacks it.
for timeline in "$build"/perf_tests/egemm_call_timeline "$build"/perf_tests/egemm_fp64_call_timeline; do
  if [[ -x $timeline ]]; then
    cp -L "$(ldd "$timeline" | awk '/libcupti/ {print $3}')" "$stage/lib/" 2>/dev/null || true
  fi
done
find "$build" -type f -perm -u+x \( -name 'egemm_*' \) ! -path '*/CMakeFiles/*' -exec cp {} "$stage/bin/" \;
if [[ ${STAGE_SYSTEM_LIBS:-0} == 1 ]]; then
  for program in "$stage"/bin/*; do ldd "$program" 2>/dev/null; done |
    awk '$3 ~ /^\/(usr\/)?lib\/x86_64-linux-gnu\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|libdl|libpthread|librt|ld-linux-x86-64|libcuda)\.so' |
    xargs -r cp -L -t "$stage/lib/"
fi
cp "$(dirname "$0")/run_device_checks.sh" "$(dirname "$0")/record_results.sh" "$stage/"
git -C "$(dirname "$0")/.." describe --always --dirty > "$stage/commit" 2>/dev/null || rm -f "$stage/commit"
cp "$(dirname "$0")/../perf_tests/report.py" "$(dirname "$0")/../perf_tests/call_timeline/plot_call_timeline.py" \
   "$(dirname "$0")/../perf_tests/call_timeline/compare_call_timelines.py" "$stage/"
du -sh "$stage"/* | sed 's/^/  /'
