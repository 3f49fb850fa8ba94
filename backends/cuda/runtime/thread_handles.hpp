// A library handle per (thread, device): a cuBLAS or cuBLASLt handle is bound
// to the device current at its creation, and sharing one between threads at
// once would race on its stream. A handle is made on a thread's first need;
// when the thread ends its handles go to a process-wide list of idle ones,
// which the next thread to need one takes from, and are never destroyed:
// destroying a cuBLAS handle synchronises the device, and that breaks another
// thread's stream capture in the global mode, whatever the capture mode of
// the destroying thread (the capture fails with cudaErrorStreamCaptureInvalidated;
// unit_tests/cuda/test_cuda_stream_semantics.cpp). A pool of worker
// threads thus reuses its predecessors' handles rather than making more.
#pragma once

#include <mutex>
#include <unordered_map>
#include <vector>

#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/relaxed_capture.hpp"

namespace egemm::cuda {

template <class Handle>
struct GenerationHandle {
  unsigned generation;  // made in this life of the device's context (context_generation.hpp)
  Handle handle;
};

// Handles no thread holds, per device. Never destroyed (threads may end
// after static destruction); a handle of an older generation died with its
// context and is dropped, not destroyed.
template <class Handle>
class IdleHandles {
 public:
  static IdleHandles& instance() {
    static auto* idle = new IdleHandles;
    return *idle;
  }

  void give(int device, GenerationHandle<Handle> h) {
    const std::lock_guard<std::mutex> lock(mutex_);
    idle_[device].push_back(h);
  }

  // An idle handle of `device` made in `generation`, or none (null).
  Handle take(int device, unsigned generation) {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::vector<GenerationHandle<Handle>>& list = idle_[device];
    while (!list.empty()) {
      const GenerationHandle<Handle> h = list.back();
      list.pop_back();
      if (h.generation == generation) return h.handle;
    }
    return nullptr;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<int, std::vector<GenerationHandle<Handle>>> idle_;
};

template <class Handle>
class ThreadHandles {
 public:
  ThreadHandles() = default;
  ThreadHandles(const ThreadHandles&) = delete;
  ThreadHandles& operator=(const ThreadHandles&) = delete;
  ~ThreadHandles() {  // at thread exit: no runtime call here (see the file comment)
    for (const auto& [device, h] : handles_) {
      try {
        if (h.generation == context_generation(device)) IdleHandles<Handle>::instance().give(device, h);
      } catch (...) {  // a destructor: the handle stays where it is
      }
    }
  }

  // The handle for `device` (the current device): this thread's, an idle
  // one of the same context, or one made by create() (returning the new
  // handle, or null where it cannot make one now) under the relaxed capture mode (making one may allocate, which a
  // stream capture in progress on this thread would refuse).
  template <class Create>
  Handle get(int device, Create&& create) {
    const unsigned generation = context_generation(device);
    auto found = handles_.find(device);
    if (found != handles_.end()) {
      if (found->second.generation == generation) return found->second.handle;
      handles_.erase(found);  // made in a context since destroyed: dropped, not destroyed
    }
    Handle h = IdleHandles<Handle>::instance().take(device, generation);
    if (h == nullptr) {
      const RelaxedCaptureScope relaxed;
      h = create();
      if (h == nullptr) return h;  // none to be had now (create's answer): the next call asks again
    }
    return handles_.emplace(device, GenerationHandle<Handle>{generation, h}).first->second.handle;
  }

 private:
  std::unordered_map<int, GenerationHandle<Handle>> handles_;
};

}  // namespace egemm::cuda
