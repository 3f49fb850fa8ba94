// Must not compile: gemm takes rank-2 Views.
#include <egemm/kokkos.hpp>

void call(Kokkos::View<float***> a, Kokkos::View<float**> b, Kokkos::View<float**> c) {
  KokkosBlas::gemm(egemm::EmulatedFP32{}, "N", "N", 1.0f, a, b, 0.0f, c);
}
