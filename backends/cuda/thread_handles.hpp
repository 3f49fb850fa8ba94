// A library handle per (thread, device), created on first use and destroyed
// at thread exit: a cuBLAS or cuBLASLt handle is bound to the device current
// at its creation, and sharing one between threads would race on its stream.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <unordered_map>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/relaxed_capture.hpp"

namespace egemm::cuda {

template <class Handle, cublasStatus_t (*Destroy)(Handle)>
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;
  ~ThreadHandles() {
    for (auto& entry : handles_) (void)Destroy(entry.second);  // at thread exit; nothing to report to
  }

  // The handle for `device`, made by create() (returning the new handle) the
  // first time, under the relaxed capture mode: creating one may allocate,
  // which a stream capture in progress on this thread would refuse.
  template <class Create>
  Handle get(int device, Create&& create) {
    auto found = handles_.find(device);
    if (found != handles_.end()) return found->second;
    const RelaxedCaptureScope relaxed;
    return handles_.emplace(device, create()).first->second;
  }

 private:
  std::unordered_map<int, Handle> handles_;
};

}  // namespace egemm::cuda
