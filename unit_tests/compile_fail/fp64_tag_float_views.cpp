// Must not compile: KokkosBlas::gemm with EmulatedFP64 takes double Views.
#include <egemm/kokkos.hpp>

void call(Kokkos::View<float**> a, Kokkos::View<float**> b, Kokkos::View<float**> c) {
  KokkosBlas::gemm(egemm::EmulatedFP64{}, "N", "N", 1.0f, a, b, 0.0f, c);
}
