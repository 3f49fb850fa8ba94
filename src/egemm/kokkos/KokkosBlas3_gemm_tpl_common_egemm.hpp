// What EGEMM's two opt-in Kokkos Kernels gemm TPLs share (float:
// EGEMM_KOKKOS_GEMM_TPL, KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp; double:
// EGEMM_KOKKOS_DGEMM_TPL, KokkosBlas3_dgemm_tpl_spec_egemm.hpp): the build
// requirements and the Views they cover.
#pragma once

#include <KokkosBlas3_gemm_spec.hpp>
#include <KokkosKernels_config.h>
#include <Kokkos_Core.hpp>

#include <type_traits>

#if !defined(KOKKOS_ENABLE_CUDA)
#error "EGEMM_KOKKOS_GEMM_TPL / EGEMM_KOKKOS_DGEMM_TPL route KokkosBlas::gemm on Kokkos::Cuda; this Kokkos was built without CUDA"
#endif
#if !defined(KOKKOSKERNELS_VERSION) || KOKKOSKERNELS_VERSION < 40000
#error "EGEMM_KOKKOS_GEMM_TPL / EGEMM_KOKKOS_DGEMM_TPL need Kokkos Kernels 4.0 or newer (gemm_tpl_spec_avail with an execution space)"
#endif
#if defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
#error "EGEMM_KOKKOS_GEMM_TPL / EGEMM_KOKKOS_DGEMM_TPL: this Kokkos Kernels was built with the cuBLAS TPL, which already owns KokkosBlas::gemm for float and double on CUDA. Use a Kokkos Kernels configured with -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF, or leave the routing off and call KokkosBlas::gemm(space, egemm::EmulatedFP32{}, ...) (egemm::EmulatedFP64{} for double)."
#endif

namespace egemm::kokkos {

template <class Layout>
inline constexpr bool is_blas_layout_v =
    std::is_same_v<Layout, Kokkos::LayoutLeft> || std::is_same_v<Layout, Kokkos::LayoutRight>;

template <class MemorySpace>
inline constexpr bool is_cuda_memory_v =
    std::is_same_v<MemorySpace, Kokkos::CudaSpace> || std::is_same_v<MemorySpace, Kokkos::CudaUVMSpace>;

}  // namespace egemm::kokkos
