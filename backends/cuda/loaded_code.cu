#include "backends/cuda/loaded_code.hpp"

#include <cuda_runtime.h>

#include "backends/cuda/code_feature_probes.cuh"
#include "backends/cuda/cuda_check.hpp"

namespace egemm::cuda {
namespace {

int compute_capability() {
  int device = 0, major = 0, minor = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return 10 * major + minor;
}

}  // namespace

bool loaded_code_has_sm90a_features() {
  return compute_capability() == 90 && probes::has_marker(probes::sm90a_features<>);
}

bool loaded_code_has_grid_dependency_control() {
  return compute_capability() >= 90 && probes::has_marker(probes::grid_dependency_control<>);
}

}  // namespace egemm::cuda
