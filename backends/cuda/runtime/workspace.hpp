// Stream-ordered scratch memory for one gemm call: allocated on the caller's
// stream from EGEMM's own memory pool and freed on it, so the call never
// synchronises. The pool keeps what it has grown to (release threshold: no
// limit): the device's default pool returns its memory to the driver at every
// synchronisation, and re-mapping a gigabyte of split pieces cost ~1.8 ms per
// 8192^3 call on an H100 (perf_tests/call_timeline shows it as a gap before the split).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "backends/cuda/runtime/cuda_check.hpp"

namespace egemm::cuda {

// EGEMM's pool on the current device, created on first use.
cudaMemPool_t workspace_pool();

// Returns the pool's unused memory to the driver (synchronises the device).
void release_workspace_memory();

class StreamWorkspace {
 public:
  // Out of device memory throws egemm::device_error saying how much was asked
  // for; nothing is enqueued then. Zero bytes allocate nothing.
  StreamWorkspace(std::size_t bytes, cudaStream_t stream);
  ~StreamWorkspace() {
    if (base_ != nullptr) (void)cudaFreeAsync(base_, stream_);  // after the kernels queued before it
  }
  StreamWorkspace(const StreamWorkspace&) = delete;
  StreamWorkspace& operator=(const StreamWorkspace&) = delete;

  unsigned char* data() const { return static_cast<unsigned char*>(base_); }

 private:
  void* base_ = nullptr;
  cudaStream_t stream_;
};

// Hands out 256-byte aligned pieces of a workspace. Built without one it only
// measures: a call runs its whole launch sequence once with such a carver to
// size its one workspace, so that nothing is enqueued before all its scratch
// is allocated (an out-of-memory error then leaves C as it was). With a base,
// taking more than the capacity measured is a bug and throws.
class WorkspaceCarver {
 public:
  WorkspaceCarver() = default;  // measures only
  WorkspaceCarver(unsigned char* base, std::size_t capacity) : base_(base), capacity_(capacity), measures_(false) {}
  bool measures_only() const { return measures_; }
  template <class T>
  T* take(std::size_t count) {
    const std::size_t at = offset_;
    offset_ += (count * sizeof(T) + 255) / 256 * 256;
    if (measures_only()) return nullptr;
    if (offset_ > capacity_) throw_overrun();
    return reinterpret_cast<T*>(base_ + at);
  }
  std::size_t size() const { return offset_; }

  // For launches of which at most one does any work, in stream order (the
  // paths of EmulatedFP32): each takes its scratch from the same offset (a
  // size() read before the first), and the carver ends past the largest.
  void rewind_to(std::size_t offset) { offset_ = offset; }
  void extend_to(std::size_t end) {
    if (end <= offset_) return;
    offset_ = end;
    if (!measures_only() && offset_ > capacity_) throw_overrun();
  }

 private:
  [[noreturn]] void throw_overrun() const;
  unsigned char* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t offset_ = 0;
  bool measures_ = true;
};

// Runs `enqueue(carver)` twice: with a carver that measures, then with one
// over a workspace of that size allocated on `stream` (freed on it after
// whatever the second run enqueued). Nothing is enqueued before the allocation.
template <class Enqueue>
void enqueue_with_workspace(cudaStream_t stream, Enqueue&& enqueue) {
  WorkspaceCarver sizer;
  enqueue(sizer);
  StreamWorkspace workspace(sizer.size(), stream);
  WorkspaceCarver scratch(workspace.data(), sizer.size());
  enqueue(scratch);
}

}  // namespace egemm::cuda
