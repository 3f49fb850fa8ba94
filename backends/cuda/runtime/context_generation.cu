// Which life of each device's context EGEMM's cached state belongs to.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <atomic>
#include <mutex>
#include <string>

#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/driver_entry.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"

namespace egemm::cuda {
namespace {

// Enough for any node; a device beyond it is refused with a message.
constexpr int max_devices = 64;

struct DeviceContexts {
  std::mutex mutex;                                       // serialises starting a generation
  std::atomic<unsigned long long> context_id[max_devices]{};  // 0: none seen yet
  std::atomic<unsigned> generation[max_devices]{};
};

DeviceContexts& contexts() {
  static DeviceContexts c;  // for the process's life
  return c;
}

// The unique id (for the process's life, CUDA 12+) of the context current on
// this thread; 0 when none is.
unsigned long long current_context_id() {
  static const auto get_current = driver_entry<PFN_cuCtxGetCurrent_v4000>("cuCtxGetCurrent");
  static const auto get_id = driver_entry<PFN_cuCtxGetId_v12000>("cuCtxGetId");
  CUcontext context = nullptr;
  if (get_current(&context) != CUDA_SUCCESS || context == nullptr) return 0;
  unsigned long long id = 0;
  return get_id(context, &id) == CUDA_SUCCESS ? id : 0;
}

int checked_device(int device) {
  if (device < 0 || device >= max_devices)
    throw unsupported("egemm::gemm (CUDA): device " + std::to_string(device) + " is beyond the " +
                      std::to_string(max_devices) + " devices EGEMM keeps state for");
  return device;
}

// With `bind`, a thread without a current context gets the device's primary
// one, as the runtime's first call there would (nothing can be captured on a
// thread without one); without, such a thread leaves the generation as it is.
unsigned observe(int device, bool bind) {
  DeviceContexts& c = contexts();
  unsigned long long id = current_context_id();
  if (id == 0 && bind) {
    EGEMM_CUDA_CHECK(cudaSetDevice(device));
    id = current_context_id();
  }
  if (id == 0 || c.context_id[device].load(std::memory_order_acquire) == id)
    return c.generation[device].load(std::memory_order_acquire);
  const std::lock_guard<std::mutex> lock(c.mutex);
  const unsigned long long before = c.context_id[device].load(std::memory_order_relaxed);
  if (before != id) {
    c.generation[device].fetch_add(1, std::memory_order_release);
    c.context_id[device].store(id, std::memory_order_release);
    if (before != 0)
      log_debug([&] {
        return "cuda device " + std::to_string(device) + ": context " + std::to_string(id) + " replaces " +
               std::to_string(before) + " (a cudaDeviceReset, or another context): per-device state made again";
      });
  }
  return c.generation[device].load(std::memory_order_acquire);
}

}  // namespace

unsigned observe_device_context() {
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return observe(checked_device(device), true);
}

unsigned context_generation(int device) {
  DeviceContexts& c = contexts();
  checked_device(device);
  // Never observed: look without binding (looking creates no context).
  if (c.context_id[device].load(std::memory_order_acquire) == 0) return observe(device, false);
  return c.generation[device].load(std::memory_order_acquire);
}

unsigned current_context_generation(int device) { return observe(checked_device(device), false); }

}  // namespace egemm::cuda
