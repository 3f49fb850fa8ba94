// Kernels that tell the host what the code the driver loaded can do (see
// kernel_images.hpp for why a binary version cannot). Never launched: where a
// feature is compiled in, the probe holds a marker array of static shared
// memory, which cudaFuncGetAttributes reports. Templates, so that each
// program instantiates them in its own code, with its own architectures
// (the library in kernel_images.cu; the precision profiler for its probes).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <optional>

namespace egemm::cuda::probes {

inline constexpr int marker_bytes = 1024;

// The stores behind a run-time flag keep the marker in the binary.
[[maybe_unused]] __device__ __forceinline__ void keep_marker(unsigned char (&marker)[marker_bytes], int never) {
  if (never != 0) {
    marker[threadIdx.x % marker_bytes] = 1;
    __syncthreads();
    if (marker[(threadIdx.x + 1) % marker_bytes] == 2) __trap();
  }
}

// sm_90a's features: wgmma, TMA, setmaxnreg.
template <int = 0>
__global__ void sm90a_features(int never) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ unsigned char marker[marker_bytes];
  keep_marker(marker, never);
#else
  (void)never;
#endif
}

// griddepcontrol (code compiled for sm_90 or later).
template <int = 0>
__global__ void grid_dependency_control(int never) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ unsigned char marker[marker_bytes];
  keep_marker(marker, never);
#else
  (void)never;
#endif
}

// `probe`'s attributes on the current device; none where the binary holds no
// code the device can load (SASS for it, or PTX the driver compiles): an
// answer here, not an error.
inline std::optional<cudaFuncAttributes> loaded_attributes(void (*probe)(int)) {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, probe) != cudaSuccess) {
    (void)cudaGetLastError();
    return std::nullopt;
  }
  return attributes;
}

// Whether `probe`'s code for the current device carries its marker.
inline bool has_marker(void (*probe)(int)) {
  const std::optional<cudaFuncAttributes> attributes = loaded_attributes(probe);
  return attributes && attributes->sharedSizeBytes >= static_cast<std::size_t>(marker_bytes);
}

}  // namespace egemm::cuda::probes
