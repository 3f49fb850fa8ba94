#!/usr/bin/env bash
# EGEMM on a fresh Debian 12 machine: install what is missing, build, then
#   scripts/quickstart.sh demo   run the 1024^3 KokkosBlas::gemm demo (GPU if Kokkos has CUDA, else host fallback)
#   scripts/quickstart.sh test   run the whole test suite through ctest
# Environment: BUILD_DIR (default build), Kokkos_ROOT / KokkosKernels_ROOT (a Kokkos
# of your own, e.g. one built with CUDA; default: Debian's Kokkos 3.4),
# EGEMM_CMAKE_ARGS (extra configure arguments), JOBS (parallel build jobs).
set -euo pipefail
mode=${1:-demo}
case "$mode" in demo|test) ;; *) echo "usage: $0 demo|test" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$here/build}
jobs=${JOBS:-$(nproc)}

step() { printf '\n==> %s\n' "$*"; }

# --- 1. packages ---------------------------------------------------------------
# g++ brings its own OpenMP (libgomp); python3-matplotlib draws the perf tools' plots.
packages=(cmake g++ make libgtest-dev libbenchmark-dev python3 python3-matplotlib)
if [[ -z "${Kokkos_ROOT:-}" ]]; then
  packages+=(libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  step "installing ${missing[*]}"
  sudo_cmd=""
  if [[ $(id -u) -ne 0 ]]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "not root and no sudo: as root, run" >&2
      echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
      echo "then run $0 $mode again" >&2
      exit 1
    fi
    sudo_cmd="sudo"
  fi
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
else
  step "packages: all present"
fi
if command -v nvcc >/dev/null 2>&1 || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=$PATH:/usr/local/cuda/bin
  echo "CUDA compiler: $(nvcc --version | tail -1) -> the CUDA backend is built"
else
  echo "no CUDA compiler: building the host backend only"
fi

# --- 2. configure and build ------------------------------------------------------
step "configuring in $build"
# With Kokkos_ROOT, forget a Kokkos an earlier configure of this build directory cached.
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release ${Kokkos_ROOT:+-UKokkos_DIR -UKokkosKernels_DIR} \
      ${EGEMM_CMAKE_ARGS:-}
step "building with $jobs jobs"
if [[ $mode == demo ]]; then
  cmake --build "$build" -j "$jobs" --target egemm_demo
else
  cmake --build "$build" -j "$jobs"
fi

# --- 3. run -------------------------------------------------------------------------
if [[ $mode == demo ]]; then
  step "demo"
  "$build/examples/egemm_demo" 1024
else
  step "tests"
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    echo "a GPU is present: GPU tests (label gpu) run too"
  else
    echo "no GPU here: tests labelled gpu report SKIPPED (a skipped GPU test is not a passed one)"
  fi
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
fi
