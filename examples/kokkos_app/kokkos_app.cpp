// What a Kokkos user writes to run a gemm on the tensor cores with FP32
// accuracy: float Views, and the EGEMM tag after the execution space.
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <egemm/kokkos.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char* argv[]) {
#if defined(KOKKOS_ENABLE_CUDA)
  if (!egemm::cuda_available()) {  // a CUDA Kokkos cannot even initialise without a GPU
    std::printf("kokkos_app: this Kokkos uses CUDA and no sm_80+ GPU is visible\n");
    return 77;  // "skipped" for ctest
  }
#endif
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int m = 512, n = 384, k = 256;
  using Space = Kokkos::DefaultExecutionSpace;  // Kokkos::Cuda with a CUDA Kokkos

  // Any mix of LayoutLeft and LayoutRight works without copies.
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> A("A", m, k);
  Kokkos::View<float**, Kokkos::LayoutRight, Space> B("B", n, k);  // used transposed below
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> C("C", m, n), C_fp32("C_fp32", m, n);
  Kokkos::Random_XorShift64_Pool<Space> pool(12345);
  Kokkos::fill_random(A, pool, -1.0f, 1.0f);
  Kokkos::fill_random(B, pool, -1.0f, 1.0f);

  // A stream of your own: the gemm is enqueued on the instance's stream and
  // returns at once, like every Kokkos Kernels call on an instance.
  const Space space;
  KokkosBlas::gemm(space, egemm::EmulatedFP32{}, "N", "T", 1.0f, A, B, 0.0f, C);  // tensor cores, FP32 accuracy
  KokkosBlas::gemm(space, egemm::NativeFP32{}, "N", "T", 1.0f, A, B, 0.0f, C_fp32);  // the stock gemm, to compare
  space.fence();

  double diff = 0, norm = 0;
  Kokkos::parallel_reduce(
      "compare", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {m, n}),
      KOKKOS_LAMBDA(int i, int j, double& d, double& r) {
        const double e = static_cast<double>(C(i, j)) - C_fp32(i, j);
        d += e * e;
        r += static_cast<double>(C_fp32(i, j)) * C_fp32(i, j);
      },
      diff, norm);
  const double rel = std::sqrt(diff / norm);
  std::printf("kokkos_app: %d x %d x %d on %s, ||C_egemm - C_stock|| / ||C_stock|| = %.2e\n", m, n, k, Space::name(),
              rel);
  return rel < 1e-5 ? EXIT_SUCCESS : EXIT_FAILURE;  // both are FP32-accurate: they agree to ~1e-7
}
