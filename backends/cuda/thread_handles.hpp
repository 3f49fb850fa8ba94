// A library handle per (thread, device), created on first use and destroyed
// at thread exit: a cuBLAS or cuBLASLt handle is bound to the device current
// at its creation, and sharing one between threads would race on its stream.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <optional>
#include <unordered_map>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/device_epoch.hpp"
#include "backends/cuda/relaxed_capture.hpp"

namespace egemm::cuda {

template <class Handle, cublasStatus_t (*Destroy)(Handle)>
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;
  ~ThreadHandles() {
    // At thread exit; nothing to report to. A handle whose context a
    // cudaDeviceReset destroyed went with it (destroying it then can crash),
    // also when no call has noticed the reset, as at the end of a program.
    // Destroying a cuBLAS handle synchronises the device, which another
    // thread's capture in the global mode would refuse (and be invalidated
    // by): under the relaxed mode, as the handles were made.
    std::optional<RelaxedCaptureScope> relaxed;
    try {
      if (!handles_.empty()) relaxed.emplace();
    } catch (...) {  // no runtime left to ask: destroy under the thread's own mode
    }
    for (auto& [device, entry] : handles_) {
      bool alive = false;
      try {
        alive = entry.epoch == device_epoch(device) && context_may_be_alive(device, entry.context_id);
      } catch (...) {  // a destructor: when in doubt, leave the handle
      }
      if (alive) (void)Destroy(entry.handle);
    }
  }

  // The handle for `device` (the current device), made by create() (returning
  // the new handle) the first time in the device's context, under the relaxed
  // capture mode: creating one may allocate, which a stream capture in
  // progress on this thread would refuse.
  template <class Create>
  Handle get(int device, Create&& create) {
    const unsigned epoch = device_epoch(device);
    auto found = handles_.find(device);
    if (found != handles_.end()) {
      if (found->second.epoch == epoch) return found->second.handle;
      handles_.erase(found);  // made in a context since destroyed: dropped, not destroyed
    }
    const RelaxedCaptureScope relaxed;
    return handles_.emplace(device, Entry{epoch, device_context_id(device), create()}).first->second.handle;
  }

 private:
  struct Entry {
    unsigned epoch;
    unsigned long long context_id;
    Handle handle;
  };
  std::unordered_map<int, Entry> handles_;
};

}  // namespace egemm::cuda
