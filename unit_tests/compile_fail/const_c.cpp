// Must not compile: C is written, so it cannot be a View of const float.
#include <egemm/kokkos.hpp>

void call(Kokkos::View<float**> a, Kokkos::View<float**> b, Kokkos::View<const float**> c) {
  KokkosBlas::gemm(egemm::EmulatedFP32{}, "N", "N", 1.0f, a, b, 0.0f, c);
}
