// Runs a validated column-major gemm on a Kokkos execution space: the CUDA
// backend on the space's stream for Kokkos::Cuda, the host fallback for host
// spaces. Nothing is fenced on CUDA (the call is stream-ordered like Kokkos
// Kernels' own cuBLAS path); a host space is fenced first because the host
// fallback reads the Views from the calling thread.
#pragma once

#include <Kokkos_Core.hpp>

#include <type_traits>

#include "egemm/kokkos/caller.hpp"
#include "egemm/gemm.hpp"

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

// Errors name the caller and the user's operands (`names`: the front end may
// have swapped A and B to use a row-major C through the transpose identity).
template <class ExecutionSpace, class Policy>
void run_gemm(const ExecutionSpace& space, Policy, OperandNames names, char ta, char tb, index_t m, index_t n, index_t k,
              float alpha, const float* a, index_t lda, const float* b, index_t ldb, float beta, float* c,
              index_t ldc) {
  static_assert(is_cuda_space_v<ExecutionSpace> || is_host_space_v<ExecutionSpace>,
                "EGEMM runs on Kokkos::Cuda and on host execution spaces only");
  const GemmArgs args =
      make_gemm_args(caller, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, names);
  if constexpr (is_cuda_space_v<ExecutionSpace>) {
#if defined(KOKKOS_ENABLE_CUDA)
    detail::gemm_cuda(policy_traits<Policy>::id, args, space.cuda_stream());
#endif
  } else {
    space.fence();
    detail::gemm_host(policy_traits<Policy>::id, args);
  }
}

}  // namespace egemm::kokkos
