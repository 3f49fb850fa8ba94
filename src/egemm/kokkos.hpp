// The Kokkos entry point (target EGEMM::kokkos):
//   #include <egemm/kokkos.hpp>
//   KokkosBlas::gemm(space, egemm::EmulatedFP32{}, "N", "T", alpha, A, B, beta, C);
//
// With EGEMM_KOKKOS_GEMM_TPL defined to a tag name, the plain
// KokkosBlas::gemm(space, "N", "T", alpha, A, B, beta, C) on float CUDA Views
// runs that tag too, through Kokkos Kernels' TPL mechanism (see
// egemm/kokkos/KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp); with
// EGEMM_KOKKOS_DGEMM_TPL=EmulatedFP64 the plain double gemm runs EmulatedFP64
// (egemm/kokkos/KokkosBlas3_dgemm_tpl_spec_egemm.hpp).
#pragma once

#include "egemm/egemm.hpp"
#include "egemm/kokkos/KokkosBlas3_gemm_egemm.hpp"
#if defined(EGEMM_KOKKOS_GEMM_TPL)
#include "egemm/kokkos/KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp"
#include "egemm/kokkos/KokkosBlas3_gemm_tpl_spec_decl_egemm.hpp"
#endif
#if defined(EGEMM_KOKKOS_DGEMM_TPL)
#include "egemm/kokkos/KokkosBlas3_dgemm_tpl_spec_egemm.hpp"
#endif
