// What the code the driver loaded can do, read from the feature probes.
#include "backends/cuda/runtime/kernel_images.hpp"

#include "backends/cuda/runtime/code_feature_probes.cuh"
#include "backends/cuda/runtime/device_facts.hpp"

#ifndef EGEMM_CUDA_ARCHITECTURES_BUILT
#define EGEMM_CUDA_ARCHITECTURES_BUILT "unknown"
#endif

namespace egemm::cuda {

bool kernel_images_load_here() {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, probes::grid_dependency_control<>) == cudaSuccess) return true;
  (void)cudaGetLastError();  // cudaErrorInvalidDeviceFunction / NoKernelImageForDevice: an answer, not an error
  return false;
}

const char* kernel_images_built_for() { return EGEMM_CUDA_ARCHITECTURES_BUILT; }

bool kernel_images_have_sm90a_features() {
  const DeviceFacts d = device_facts();
  return d.major == 9 && d.minor == 0 && probes::has_marker(probes::sm90a_features<>);
}

bool kernel_images_have_grid_dependency_control() {
  return device_facts().major >= 9 && probes::has_marker(probes::grid_dependency_control<>);
}

}  // namespace egemm::cuda
