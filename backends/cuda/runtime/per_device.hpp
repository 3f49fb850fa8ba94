// A value worked out once per CUDA device (kernel occupancy, whether a
// binary has code for it, its bandwidth) and kept while the device's context
// lives: after a cudaDeviceReset it is worked out again
// (context_generation.hpp). Objects a reset leaves alive are kept for the process
// instead: a memory pool made with cudaMemPoolCreate keeps its memory, and
// stays usable, through cudaDeviceReset (unit_tests/cuda/test_cuda_device_reset.cpp),
// so making another would leave the first one's memory behind.
#pragma once

#include <cuda_runtime.h>

#include <mutex>
#include <optional>
#include <unordered_map>

#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/relaxed_capture.hpp"

namespace egemm::cuda {

// How long a PerDevice value stands: while the device's context lives (the
// default), or for the process (what a reset leaves alive).
enum class Lifetime { context, process };

template <class T, Lifetime lifetime = Lifetime::context>
class PerDevice {
 public:
  // The value for the current device, computed by compute(device) the first
  // time (under the relaxed capture mode: it may be a captured call's set-up).
  template <class Compute>
  T get(Compute&& compute) {
    int device = 0;
    EGEMM_CUDA_CHECK(cudaGetDevice(&device));
    const unsigned generation = lifetime == Lifetime::context ? context_generation(device) : 0;
    // This thread's last answer from this cache, without the lock: a small
    // call's host path asks several caches, and a value, once made for a
    // device and generation, never changes.
    thread_local ThreadsLast last;
    if (last.owner == this && last.device == device && last.generation == generation) return *last.value;
    const std::lock_guard<std::mutex> lock(mutex_);
    auto it = values_.find(device);
    if (it == values_.end() || it->second.generation != generation) {
      const RelaxedCaptureScope relaxed;
      it = values_.insert_or_assign(device, Entry{generation, compute(device)}).first;
    }
    last.value = it->second.value;
    last.owner = this;
    last.device = device;
    last.generation = generation;
    return it->second.value;
  }

 private:
  struct Entry {
    unsigned generation;
    T value;
  };
  struct ThreadsLast {  // per thread and T: `owner` says which cache (every PerDevice is a static)
    const PerDevice* owner = nullptr;
    int device = -1;
    unsigned generation = 0;
    std::optional<T> value;
  };
  std::mutex mutex_;
  std::unordered_map<int, Entry> values_;
};

// Lets `kernel` use `smem_bytes` of dynamic shared memory (above 48 KiB a
// kernel must opt in, per device), once per device: `opted_in` is the
// caller's, a static beside the kernel it stands for.
template <class Kernel>
void allow_dynamic_smem(PerDevice<bool>& opted_in, Kernel kernel, int smem_bytes) {
  (void)opted_in.get([&](int) {
    EGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
    return true;
  });
}

// Blocks of `kernel` one SM holds at once with `threads` threads and
// `smem_bytes` of dynamic shared memory (opting in above 48 KiB first).
// Callers keep the answer in a PerDevice.
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel, int threads, int smem_bytes) {
  EGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  int blocks = 0;
  EGEMM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem_bytes));
  return blocks;
}

}  // namespace egemm::cuda
