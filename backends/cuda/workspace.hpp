// Stream-ordered scratch memory for one gemm call: allocated with
// cudaMallocAsync on the caller's stream and released with cudaFreeAsync on
// it, so the call never synchronises and the pool recycles the memory.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "backends/cuda/cuda_check.hpp"

namespace egemm::cuda {

class StreamWorkspace {
 public:
  StreamWorkspace(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
    EGEMM_CUDA_CHECK(cudaMallocAsync(&base_, bytes, stream));
  }
  ~StreamWorkspace() { (void)cudaFreeAsync(base_, stream_); }  // after the kernels queued before it
  StreamWorkspace(const StreamWorkspace&) = delete;
  StreamWorkspace& operator=(const StreamWorkspace&) = delete;

  unsigned char* data() const { return static_cast<unsigned char*>(base_); }

 private:
  void* base_ = nullptr;
  cudaStream_t stream_;
};

// Hands out 256-byte aligned pieces of a workspace; with base nullptr it only measures.
class WorkspaceCarver {
 public:
  explicit WorkspaceCarver(unsigned char* base = nullptr) : base_(base) {}
  template <class T>
  T* take(std::size_t count) {
    const std::size_t at = offset_;
    offset_ += (count * sizeof(T) + 255) / 256 * 256;
    return base_ ? reinterpret_cast<T*>(base_ + at) : nullptr;
  }
  std::size_t size() const { return offset_; }

 private:
  unsigned char* base_;
  std::size_t offset_ = 0;
};

}  // namespace egemm::cuda
