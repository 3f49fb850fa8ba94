// Warm-up before timing: a method runs until at least `min_calls` calls and
// `min_ms` of wall time have gone by, each call synchronised as the timed ones
// are. After a problem's set-up the GPU may sit at a low clock, and two short
// calls do not bring it back up: the first methods timed on a small shape
// measured up to 30% slower than the same cuBLAS call timed after them
// (the GEMM suite on an H100, without this warm-up).
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <stdexcept>
#include <string>

namespace egemm::perf {

template <class Call>
void warm_up(Call&& call, cudaStream_t stream, int min_calls = 2, double min_ms = 50.0) {
  const auto start = std::chrono::steady_clock::now();
  for (int calls = 0;; ++calls) {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (calls >= min_calls && ms >= min_ms) return;
    call(calls);
    const cudaError_t e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) throw std::runtime_error(std::string("warm-up: ") + cudaGetErrorString(e));
  }
}

}  // namespace egemm::perf
