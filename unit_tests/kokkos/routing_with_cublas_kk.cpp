// Must not compile: EGEMM_KOKKOS_GEMM_TPL with a Kokkos Kernels built with the
// cuBLAS TPL, which already owns float gemm on CUDA. ctest expects EGEMM's
// #error, not an obscure ambiguous-specialisation error later.
#include <egemm/kokkos.hpp>

void call(Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::Cuda> a, Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::Cuda> c) {
  KokkosBlas::gemm("N", "N", 1.0f, a, a, 0.0f, c);
}
