// One-time set-up (a cuBLAS handle, a memory pool, kernel attributes) may
// allocate device memory or do other things a stream capture in progress on
// this thread refuses (capture modes global and thread-local): it runs under
// the relaxed mode, so that a call captured into a CUDA graph as its thread's
// first still works. The set-up enqueues no work, so the graph is unchanged.
#pragma once

#include <cuda_runtime.h>

#include "backends/cuda/runtime/cuda_check.hpp"

namespace egemm::cuda {

class RelaxedCaptureScope {
 public:
  RelaxedCaptureScope() { EGEMM_CUDA_CHECK(cudaThreadExchangeStreamCaptureMode(&mode_)); }
  ~RelaxedCaptureScope() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }  // the thread's own mode back
  RelaxedCaptureScope(const RelaxedCaptureScope&) = delete;
  RelaxedCaptureScope& operator=(const RelaxedCaptureScope&) = delete;

 private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

}  // namespace egemm::cuda
