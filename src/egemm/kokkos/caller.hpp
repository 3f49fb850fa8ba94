// How the Kokkos entry point names itself at the head of its error messages
// (the raw API says "egemm::gemm").
#pragma once

namespace egemm::kokkos {

inline constexpr char caller[] = "KokkosBlas::gemm (EGEMM)";

}  // namespace egemm::kokkos
