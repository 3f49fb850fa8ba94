// Stream-ordered scratch memory for one gemm call: allocated on the caller's
// stream from EGEMM's own memory pool and freed on it, so the call never
// synchronises. The pool keeps what it has grown to (release threshold: no
// limit): the device's default pool returns its memory to the driver at every
// synchronisation, and re-mapping a gigabyte of split pieces cost ~1.8 ms per
// 8192^3 call on an H100 (perf_tests/call_timeline shows it as a gap before the split).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/scratch_panels.hpp"

namespace egemm::cuda {

// EGEMM's pool on the current device, created on first use.
cudaMemPool_t workspace_pool();

// Returns the pool's unused memory to the driver (synchronises the device).
void release_workspace_memory();

// How many times release_workspace_memory has run in this process (on any
// device): what a cache of failed allocations compares to ask again.
unsigned workspace_releases();

class StreamWorkspace {
 public:
  // try_allocate, throwing egemm::device_error, saying how much was asked
  // for, where it says false; nothing is enqueued then. Zero bytes allocate nothing.
  StreamWorkspace(std::size_t bytes, cudaStream_t stream);
  // Empty, for try_allocate.
  explicit StreamWorkspace(cudaStream_t stream) : stream_(stream) {}
  ~StreamWorkspace() {
    if (base_ != nullptr) (void)cudaFreeAsync(base_, stream_);  // after the kernels queued before it
  }
  StreamWorkspace(const StreamWorkspace&) = delete;
  StreamWorkspace& operator=(const StreamWorkspace&) = delete;

  // Allocates `bytes` on an empty workspace; false, with nothing allocated or
  // enqueued, where the pool cannot have them now or they exceed the
  // tuning's scratch_limit (tuning.hpp). The answer is the allocator's
  // synchronous return code: nothing waits for the GPU.
  bool try_allocate(std::size_t bytes);

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

// How a call's scratch was had (enqueue_within_memory).
struct ScratchOutcome {
  std::size_t whole_bytes = 0;  // what the call as a whole asked for
  PanelShape panels;            // the panels of C it ran in: m x n where it ran whole
  index_t panel_count = 1;
  std::size_t panel_bytes = 0;  // the one workspace the panels took in turn
  // Nothing was enqueued (ran false) where no panels' scratch could be had,
  // or where the next smaller panels would not pay (stopped_paying).
  bool ran = true;
  bool stopped_paying = false;
  bool whole() const { return ran && panel_count == 1; }
};

// A gemm call's launch sequence on as much scratch as the device has:
// `enqueue(part, carver, whole)` runs the sequence on the panel `part` of C
// (the call itself, whole == true, where its scratch fits). Where the call's
// one allocation fails, C is cut into panels (scratch_panels.hpp), ever
// smaller while panels_pay(shape) holds, until one workspace holds the
// scratch of every panel of a shape: the panels then run one after another
// on it, in stream order. Every panel's scratch is measured and allocated
// before the first is enqueued, so nothing can run out of memory part way
// through C; where no shape fits, nothing is enqueued and `ran` is false
// (the caller hands off to SGEMM). A failed attempt is the allocator's
// synchronous return code: nothing waits for the GPU.
template <class Enqueue, class PanelsPay>
ScratchOutcome enqueue_within_memory(const GemmArgs& g, cudaStream_t stream, Enqueue&& enqueue, PanelsPay&& panels_pay) {
  ScratchOutcome out;
  out.panels = {g.m, g.n};
  {
    WorkspaceCarver sizer;
    enqueue(g, sizer, true);
    out.whole_bytes = out.panel_bytes = sizer.size();
  }
  StreamWorkspace workspace(stream);
  if (workspace.try_allocate(out.whole_bytes)) {
    WorkspaceCarver scratch(workspace.data(), out.whole_bytes);
    enqueue(g, scratch, true);
    return out;
  }
  for (std::optional<PanelShape> p = smaller_panels(out.panels); p; p = smaller_panels(*p)) {
    if (!panels_pay(*p)) {
      out.stopped_paying = true;
      break;
    }
    std::size_t bytes = 0;
    for_each_panel(g, *p, [&](const GemmArgs& part) {
      WorkspaceCarver sizer;
      enqueue(part, sizer, false);
      bytes = std::max(bytes, sizer.size());
    });
    if (!workspace.try_allocate(bytes)) continue;
    for_each_panel(g, *p, [&](const GemmArgs& part) {
      WorkspaceCarver scratch(workspace.data(), bytes);
      enqueue(part, scratch, false);
    });
    out.panels = *p;
    out.panel_count = panel_count(g.m, g.n, *p);
    out.panel_bytes = bytes;
    return out;
  }
  out.ran = false;
  out.panel_bytes = 0;
  return out;
}

}  // namespace egemm::cuda
