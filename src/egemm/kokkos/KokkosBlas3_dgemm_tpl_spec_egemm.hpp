// EGEMM as Kokkos Kernels' double gemm TPL (opt-in, EGEMM_KOKKOS_DGEMM_TPL=EmulatedFP64):
// the plain KokkosBlas::gemm on double Views in CudaSpace or CudaUVMSpace
// (any mix of LayoutLeft and LayoutRight) runs EmulatedFP64 on the space's
// stream. The same hook, the same requirements (a Kokkos Kernels without the
// cuBLAS TPL) and the same coverage as the float routing
// (KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp says why); the two are independent.
#pragma once

#include "egemm/kokkos/KokkosBlas3_gemm_egemm.hpp"
#include "egemm/kokkos/KokkosBlas3_gemm_tpl_common_egemm.hpp"

namespace egemm::kokkos {

using routed_fp64_policy = egemm::EGEMM_KOKKOS_DGEMM_TPL;
static_assert(is_policy_for_v<routed_fp64_policy, double>,
              "EGEMM_KOKKOS_DGEMM_TPL must name an EGEMM double-precision tag: EmulatedFP64");

}  // namespace egemm::kokkos

namespace KokkosBlas {
namespace Impl {

template <class LayoutA, class LayoutB, class LayoutC, class MemorySpace>
struct gemm_tpl_spec_avail<
    Kokkos::Cuda,
    Kokkos::View<const double**, LayoutA, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<const double**, LayoutB, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<double**, LayoutC, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>> {
  enum : bool {
    value = egemm::kokkos::is_blas_layout_v<LayoutA> && egemm::kokkos::is_blas_layout_v<LayoutB> &&
            egemm::kokkos::is_blas_layout_v<LayoutC> && egemm::kokkos::is_cuda_memory_v<MemorySpace>
  };
};

template <class LayoutA, class LayoutB, class LayoutC, class MemorySpace, bool eti_spec_avail>
struct GEMM<
    Kokkos::Cuda,
    Kokkos::View<const double**, LayoutA, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<const double**, LayoutB, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<double**, LayoutC, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    true, eti_spec_avail> {
  using device = Kokkos::Device<Kokkos::Cuda, MemorySpace>;
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using AViewType = Kokkos::View<const double**, LayoutA, device, unmanaged>;
  using BViewType = Kokkos::View<const double**, LayoutB, device, unmanaged>;
  using CViewType = Kokkos::View<double**, LayoutC, device, unmanaged>;

  static void gemm(const Kokkos::Cuda& space, const char transA[], const char transB[], const double& alpha,
                   const AViewType& A, const BViewType& B, const double& beta, const CViewType& C) {
    Kokkos::Profiling::pushRegion("KokkosBlas::gemm[TPL_EGEMM,double]");
    egemm::kokkos::gemm(space, egemm::kokkos::routed_fp64_policy{}, transA, transB, alpha, A, B, beta, C);
    Kokkos::Profiling::popRegion();
  }
};

}  // namespace Impl
}  // namespace KokkosBlas
