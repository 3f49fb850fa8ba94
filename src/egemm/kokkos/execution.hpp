// Runs a validated column-major gemm on a Kokkos execution space: the CUDA
// backend on the space's stream for Kokkos::Cuda, the host fallback for host
// spaces. Nothing is fenced on CUDA (the call is stream-ordered like Kokkos
// Kernels' own cuBLAS path); a host space is fenced first because the host
// fallback reads the Views from the calling thread.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "egemm/gemm.hpp"
#include "egemm/kokkos/caller.hpp"

namespace egemm::kokkos {

template <class ExecutionSpace>
inline constexpr bool is_cuda_space_v =
#if defined(KOKKOS_ENABLE_CUDA)
    std::is_same_v<ExecutionSpace, Kokkos::Cuda>;
#else
    false;
#endif

template <class ExecutionSpace>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible && !is_cuda_space_v<ExecutionSpace>;

// The CUDA stream a space's work is ordered on; nullptr for host spaces.
template <class ExecutionSpace>
cuda_stream_t stream_of([[maybe_unused]] const ExecutionSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (is_cuda_space_v<ExecutionSpace>) return space.cuda_stream();
#endif
  return nullptr;
}

// Runs validated arguments on the space.
template <class ExecutionSpace, class T>
void run_gemm(const ExecutionSpace& space, PolicyId policy, const GemmArgsT<T>& args) {
  static_assert(is_cuda_space_v<ExecutionSpace> || is_host_space_v<ExecutionSpace>,
                "EGEMM runs on Kokkos::Cuda and on host execution spaces only");
  if constexpr (is_cuda_space_v<ExecutionSpace>) {
    detail::gemm_cuda(policy, args, stream_of(space));
  } else {
    space.fence();
    detail::gemm_host(policy, args);
  }
}

}  // namespace egemm::kokkos
