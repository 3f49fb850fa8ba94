#include "backends/cuda/loaded_code.hpp"

#include "backends/cuda/code_feature_probes.cuh"
#include "backends/cuda/device_facts.hpp"

namespace egemm::cuda {

bool loaded_code_has_sm90a_features() {
  const DeviceFacts d = device_facts();
  return d.major == 9 && d.minor == 0 && probes::has_marker(probes::sm90a_features<>);
}

bool loaded_code_has_grid_dependency_control() {
  return device_facts().major >= 9 && probes::has_marker(probes::grid_dependency_control<>);
}

}  // namespace egemm::cuda
