// Links EGEMM::kokkos from an installed package and calls the tagged KokkosBlas::gemm.
#include <egemm/kokkos.hpp>

#include <cstdio>

int main(int argc, char** argv) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (!egemm::cuda_available()) {  // a CUDA Kokkos cannot initialise without a GPU
    std::printf("kokkos_api: built; not run (CUDA Kokkos, no GPU visible)\n");
    return 0;
  }
#endif
  Kokkos::ScopeGuard guard(argc, argv);
  Kokkos::View<float**, Kokkos::LayoutLeft> A("A", 2, 2), B("B", 2, 2), C("C", 2, 2);
  auto a = Kokkos::create_mirror_view(A), b = Kokkos::create_mirror_view(B);
  a(0, 0) = 1; a(1, 0) = 2; a(0, 1) = 3; a(1, 1) = 4;
  b(0, 0) = 5; b(1, 0) = 6; b(0, 1) = 7; b(1, 1) = 8;
  Kokkos::deep_copy(A, a);
  Kokkos::deep_copy(B, b);
  KokkosBlas::gemm(egemm::EmulatedFP32{}, "N", "N", 1.0f, A, B, 0.0f, C);
  auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, C);
  const bool ok = c(0, 0) == 23 && c(1, 0) == 34 && c(0, 1) == 31 && c(1, 1) == 46;
  std::printf("kokkos_api: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
