// Must not compile: EGEMM emulates FP32, a double View is a caller error.
#include <egemm/kokkos.hpp>

void call(Kokkos::View<double**> a, Kokkos::View<double**> b, Kokkos::View<double**> c) {
  KokkosBlas::gemm(egemm::EmulatedFP32{}, "N", "N", 1.0, a, b, 0.0, c);
}
