// The per-call checks' device attributes, queried once per device and context.
#include "backends/cuda/runtime/device_facts.hpp"

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/per_device.hpp"

namespace egemm::cuda {

DeviceFacts device_facts() {
  static PerDevice<DeviceFacts> per_device;
  return per_device.get([](int device) {
    DeviceFacts f;
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&f.major, cudaDevAttrComputeCapabilityMajor, device));
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&f.minor, cudaDevAttrComputeCapabilityMinor, device));
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, device));
    return f;
  });
}

}  // namespace egemm::cuda
