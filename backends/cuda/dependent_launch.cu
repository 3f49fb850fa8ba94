#include "backends/cuda/dependent_launch.hpp"

#include "backends/cuda/per_device.hpp"

namespace egemm::cuda {

bool dependent_launch_supported() {
  static PerDevice<bool> per_device;
  return per_device.get([](int device) {
    int major = 0;
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    return major >= 9;
  });
}

}  // namespace egemm::cuda
