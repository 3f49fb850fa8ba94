// Programmatic dependent launch (sm_90+): a call's kernels are launched so
// that each may be set up, and its blocks placed on SMs the previous kernel
// has left, while that kernel finishes; every such kernel first waits, in
// wait_for_previous_kernel, until the previous one has completed and its
// writes are visible. The launch gap between dependent kernels (~3 us on the
// H100, model::HopperResources::launch_gap_s) shrinks; the order of effects
// is unchanged.
//
// Every kernel launched by launch_dependent waits unconditionally, first
// thing, even one that then exits at once: a kernel that completed without
// waiting would let its successor run before its predecessor finished. The
// kernels that never wait (the mma.sync and cp.async gemms, scale_c) are
// launched by launch_plain.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/tuning.hpp"

namespace egemm::cuda {

// Blocks until the kernel launched before this one on the stream has completed
// and its memory is visible (returns at once for a kernel launched normally).
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

// Lets the next dependent kernel launch once every block of this one has
// called it (or exited); its blocks then take SMs as this kernel's free them.
__device__ __forceinline__ void allow_next_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

// Whether the current device honours the launch attribute (compute capability
// 9.0 and newer) and runs this build's sm_90+ code, whose kernels wait, and
// the tuning does not turn dependent launches off (tuning.hpp).
bool dependent_launch_supported();

// The launch attribute, or nothing where the device lacks it; `attribute` is filled either way.
inline int dependent_launch_attribute(cudaLaunchAttribute& attribute) {
  attribute = cudaLaunchAttribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  return dependent_launch_supported() ? 1 : 0;
}

// The launch attribute for clusters of `blocks` blocks along x (sm_90 and newer).
inline cudaLaunchAttribute cluster_dimension_attribute(unsigned blocks) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = blocks;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  return attribute;
}

namespace detail {
template <class... Params, class... Args>
void launch_kernel(bool dependent, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem,
                   cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  config.numAttrs = dependent ? static_cast<unsigned>(dependent_launch_attribute(attribute)) : 0u;
  config.attrs = &attribute;
  const bool faulted = fault_this_launch();  // the tuning's fault_launch: the error path's tests
  const cudaError_t launched =
      faulted ? cudaErrorLaunchFailure : cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  if (launched != cudaSuccess)
    throw_cuda_error(launched, faulted ? "cudaLaunchKernelEx (a failure the tuning's fault_launch asked for)" : "cudaLaunchKernelEx",
                     __FILE__, __LINE__);
}
}  // namespace detail

// kernel<<<grid, block, smem, stream>>>(args...) as a dependent launch.
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                      Args&&... args) {
  detail::launch_kernel(true, kernel, grid, block, smem, stream, std::forward<Args>(args)...);
}

// kernel<<<grid, block, smem, stream>>>(args...), checked by the launch's own
// status. Every launch is checked so: cudaGetLastError after <<<>>> would
// also report, as this launch's failure, an error the caller's earlier runtime
// calls left unread, after the call's first kernels were enqueued.
template <class... Params, class... Args>
void launch_plain(void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t smem, cudaStream_t stream,
                  Args&&... args) {
  detail::launch_kernel(false, kernel, grid, block, smem, stream, std::forward<Args>(args)...);
}

}  // namespace egemm::cuda
