// EGEMM as a Kokkos Kernels gemm TPL (opt-in): registers float gemm on
// Kokkos::Cuda with KokkosBlas::Impl::gemm_tpl_spec_avail, the hook through
// which Kokkos Kernels routes KokkosBlas::gemm to cuBLAS
// (blas/tpls/KokkosBlas3_gemm_tpl_spec_avail.hpp). KokkosBlas3_gemm_tpl_spec_decl_egemm.hpp
// supplies the matching KokkosBlas::Impl::GEMM.
//
// On when EGEMM_KOKKOS_GEMM_TPL names a tag (-DEGEMM_KOKKOS_GEMM_TPL=EmulatedFP32);
// the CMake switch of the same name sets it for every target that links EGEMM::kokkos.
//
// Why it needs a Kokkos Kernels built with KokkosKernels_ENABLE_TPL_CUBLAS=OFF:
// with cuBLAS on, Kokkos Kernels already specialises gemm_tpl_spec_avail and
// GEMM<..., tpl_spec_avail = true, ...> for exactly these Views, so a second
// partial specialisation is ambiguous, and a full specialisation that beats
// it would be a different definition of a specialisation Kokkos Kernels'
// own code may instantiate (ill-formed, no diagnostic required). Kokkos
// Kernels offers no other hook for gemm. So the routing refuses to build on
// a cuBLAS Kokkos Kernels (here and at CMake configure time); the tagged
// KokkosBlas::gemm(space, egemm::EmulatedFP32{}, ...) works with either.
//
// Covered: float Views in CudaSpace or CudaUVMSpace, any mix of LayoutLeft and
// LayoutRight. Everything else (LayoutStride, other spaces, other scalars)
// stays with Kokkos Kernels, and so do the calls Kokkos Kernels answers
// before its TPL dispatch: empty C, k == 0 (a scal of C), and a single
// column B with "N","N" (a gemv).
#pragma once

#include "egemm/kokkos/KokkosBlas3_gemm_tpl_common_egemm.hpp"

namespace KokkosBlas {
namespace Impl {

// The View types Kokkos Kernels' gemm hands to its Impl::GEMM: unmanaged,
// const A and B, on Device<Cuda, MemorySpace>.
template <class LayoutA, class LayoutB, class LayoutC, class MemorySpace>
struct gemm_tpl_spec_avail<
    Kokkos::Cuda,
    Kokkos::View<const float**, LayoutA, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<const float**, LayoutB, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>,
    Kokkos::View<float**, LayoutC, Kokkos::Device<Kokkos::Cuda, MemorySpace>, Kokkos::MemoryTraits<Kokkos::Unmanaged>>> {
  enum : bool {
    value = egemm::kokkos::is_blas_layout_v<LayoutA> && egemm::kokkos::is_blas_layout_v<LayoutB> &&
            egemm::kokkos::is_blas_layout_v<LayoutC> && egemm::kokkos::is_cuda_memory_v<MemorySpace>
  };
};

}  // namespace Impl
}  // namespace KokkosBlas
