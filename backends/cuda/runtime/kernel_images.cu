// What the code the driver loaded can do, read from the feature probes.
#include "backends/cuda/runtime/kernel_images.hpp"

#include "backends/cuda/runtime/code_feature_probes.cuh"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/per_device.hpp"

#ifndef EGEMM_CUDA_ARCHITECTURES_BUILT
#define EGEMM_CUDA_ARCHITECTURES_BUILT "unknown"
#endif

namespace egemm::cuda {

bool kernel_images_load_here() {
  // Asked by every CUDA call (cuda_gemm.cu): the driver's answer, once per device and context.
  static PerDevice<bool> loads;
  return loads.get([](int) { return probes::loaded_attributes(probes::grid_dependency_control<>).has_value(); });
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
