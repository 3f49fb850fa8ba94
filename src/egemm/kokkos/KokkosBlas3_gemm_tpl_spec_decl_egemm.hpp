// EGEMM as a Kokkos Kernels gemm TPL (opt-in): the KokkosBlas::Impl::GEMM that
// Kokkos Kernels calls for the Views KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp
// registers, as blas/tpls/KokkosBlas3_gemm_tpl_spec_decl.hpp does for cuBLAS.
// It runs the tag EGEMM_KOKKOS_GEMM_TPL names on the space's stream.
#pragma once

#include "egemm/kokkos/KokkosBlas3_gemm_egemm.hpp"
#include "egemm/kokkos/KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp"

namespace egemm::kokkos {

using routed_policy = egemm::EGEMM_KOKKOS_GEMM_TPL;
static_assert(is_policy_v<routed_policy>, "EGEMM_KOKKOS_GEMM_TPL must name an EGEMM tag, e.g. EmulatedFP32");
static_assert(policy_traits<routed_policy>::emulated,
              "EGEMM_KOKKOS_GEMM_TPL=NativeFP32 would route the stock gemm to itself; leave the routing off instead");

}  // namespace egemm::kokkos

namespace KokkosBlas {
namespace Impl {

template <class LayoutA, class LayoutB, class LayoutC, class MemorySpace, bool eti_spec_avail>
struct GEMM<
    Kokkos::Cuda,
    Kokkos::View<const float**, LayoutA, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<const float**, LayoutB, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<float**, LayoutC, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    true, eti_spec_avail> {
  using device = Kokkos::Device<Kokkos::Cuda, MemorySpace>;
  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using AViewType = Kokkos::View<const float**, LayoutA, device, unmanaged>;
  using BViewType = Kokkos::View<const float**, LayoutB, device, unmanaged>;
  using CViewType = Kokkos::View<float**, LayoutC, device, unmanaged>;

  static void gemm(const Kokkos::Cuda& space, const char transA[], const char transB[], const float& alpha,
                   const AViewType& A, const BViewType& B, const float& beta, const CViewType& C) {
    Kokkos::Profiling::pushRegion("KokkosBlas::gemm[TPL_EGEMM,float]");
    egemm::kokkos::gemm(space, egemm::kokkos::routed_policy{}, transA, transB, alpha, A, B, beta, C);
    Kokkos::Profiling::popRegion();
  }
};

}  // namespace Impl
}  // namespace KokkosBlas
