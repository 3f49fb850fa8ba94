#include "backends/cuda/loaded_code.hpp"

#include <cuda_runtime.h>

#include "backends/cuda/cuda_check.hpp"

namespace egemm::cuda {
namespace {

constexpr int marker_bytes = 1024;

// Never launched. Where the feature is compiled in, a marker array of static
// shared memory; the stores behind a run-time flag keep it in the binary.
[[maybe_unused]] __device__ __forceinline__ void keep_marker(unsigned char (&marker)[marker_bytes], int never) {
  if (never != 0) {
    marker[threadIdx.x % marker_bytes] = 1;
    __syncthreads();
    if (marker[(threadIdx.x + 1) % marker_bytes] == 2) __trap();
  }
}

__global__ void sm90a_features_probe(int never) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ unsigned char marker[marker_bytes];
  keep_marker(marker, never);
#else
  (void)never;
#endif
}

__global__ void grid_dependency_control_probe(int never) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ unsigned char marker[marker_bytes];
  keep_marker(marker, never);
#else
  (void)never;
#endif
}

// Whether `probe`'s code for the current device carries its marker. No code
// for the device in the binary is an answer here, not a reason to fail the call.
bool has_marker(void (*probe)(int)) {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, probe) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return attributes.sharedSizeBytes >= static_cast<size_t>(marker_bytes);
}

int compute_capability() {
  int device = 0, major = 0, minor = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return 10 * major + minor;
}

}  // namespace

bool loaded_code_has_sm90a_features() {
  return compute_capability() == 90 && has_marker(sm90a_features_probe);
}

bool loaded_code_has_grid_dependency_control() {
  return compute_capability() >= 90 && has_marker(grid_dependency_control_probe);
}

}  // namespace egemm::cuda
