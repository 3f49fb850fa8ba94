// The Kokkos entry point (target EGEMM::kokkos):
//   #include <egemm/kokkos.hpp>
//   KokkosBlas::gemm(space, egemm::EmulatedFP32{}, "N", "T", alpha, A, B, beta, C);
#pragma once

#include "egemm/egemm.hpp"
#include "egemm/kokkos/KokkosBlas3_gemm_egemm.hpp"
