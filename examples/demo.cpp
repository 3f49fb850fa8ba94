// EGEMM demo: one 1024^3 KokkosBlas::gemm with the EmulatedFP32 tag (and
// with Int8Slices, the INT8 tensor-core path) on Kokkos' default execution
// space (the GPU when Kokkos was built with CUDA, else the host fallback),
// against float64 and against plain FP32. Where
// Kokkos has no CUDA backend but a GPU is present (Debian's Kokkos on a GPU
// machine), the same product runs on the GPU through EGEMM's raw-pointer API
// as well: what KokkosBlas::gemm on Kokkos::Cuda calls.
//
//   ./egemm_demo [n]
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "egemm/kokkos.hpp"

#if defined(EGEMM_DEMO_RAW_CUDA)
#include <cuda_runtime.h>
#endif

namespace {

using Space = Kokkos::DefaultExecutionSpace;
using Matrix = Kokkos::View<float**, Kokkos::LayoutLeft, Space>;

Matrix random_matrix(const char* name, int rows, int cols, unsigned seed) {
  Matrix m(std::string(name), rows, cols);
  auto h = Kokkos::create_mirror_view(m);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) h(i, j) = u(gen);
  Kokkos::deep_copy(m, h);
  return m;
}

std::vector<float> to_host(const Matrix& m) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, m);
  return std::vector<float>(h.data(), h.data() + h.size());
}

// Seconds of one tagged gemm after a warm-up: on a GPU the median of 5 fenced
// calls (one call of ~0.1 ms is at the mercy of launch jitter); on the host one.
template <class Tag>
double timed_gemm(Tag tag, const Matrix& A, const Matrix& B, const Matrix& C) {
  KokkosBlas::gemm(Space{}, tag, "N", "T", 1.0f, A, B, 0.0f, C);
  Space{}.fence();
  const int reps = egemm::kokkos::is_cuda_space_v<Space> ? 5 : 1;
  std::vector<double> seconds;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    KokkosBlas::gemm(Space{}, tag, "N", "T", 1.0f, A, B, 0.0f, C);
    Space{}.fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + reps / 2, seconds.end());
  return seconds[reps / 2];
}

void print_row(const char* path, double seconds, double flop, const egemm::reference::ErrorStats& e) {
  std::printf("  %-26s %12.2f %12.1f %14.3e %14.3e\n", path, seconds * 1e3, flop / seconds / 1e9, e.rel_frobenius,
              e.max_abs);
}

#if defined(EGEMM_DEMO_RAW_CUDA)
bool cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::printf("  %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

// The product on the GPU through the raw-pointer API (column-major device
// memory, a stream): each tag's median of 5 synchronised calls after a warm-up.
void run_on_gpu(int n, const std::vector<float>& a, const std::vector<float>& b, const std::vector<double>& ref) {
  const std::size_t bytes = static_cast<std::size_t>(n) * n * sizeof(float);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  cudaStream_t stream = nullptr;
  if (!cuda_ok(cudaMalloc(&da, bytes), "cudaMalloc") || !cuda_ok(cudaMalloc(&db, bytes), "cudaMalloc") ||
      !cuda_ok(cudaMalloc(&dc, bytes), "cudaMalloc") || !cuda_ok(cudaStreamCreate(&stream), "cudaStreamCreate") ||
      !cuda_ok(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice), "copy A") ||
      !cuda_ok(cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice), "copy B"))
    return;
  std::printf("\n  the same product on the GPU through EGEMM's raw-pointer API (device memory, a stream):\n");
  const double flop = 2.0 * n * n * n;
  const auto run = [&](auto tag, const char* path) {
    std::vector<double> seconds;
    for (int rep = 0; rep < 6; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      egemm::gemm(tag, 'N', 'T', n, n, n, 1.0f, da, n, db, n, 0.0f, dc, n, stream);
      if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) return;
      if (rep > 0) seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + 2, seconds.end());
    std::vector<float> c(static_cast<std::size_t>(n) * n);
    if (!cuda_ok(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost), "copy C")) return;
    print_row(path, seconds[2], flop, egemm::reference::compare(c.data(), n, ref.data(), n, n));
  };
  run(egemm::EmulatedFP32{}, "EmulatedFP32 (EGEMM, GPU)");
  run(egemm::Int8Slices{}, "Int8Slices (EGEMM, GPU)");
  run(egemm::NativeFP32{}, "FP32 SGEMM (cuBLAS, GPU)");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  cudaStreamDestroy(stream);
}
#endif

}  // namespace

// The size from the command line (default 1024), or a usage message.
int demo_size(int argc, char** argv) {
  if (argc <= 1) return 1024;
  char* end = nullptr;
  const long n = std::strtol(argv[1], &end, 10);
  if (argc > 2 || end == argv[1] || *end != '\0' || n < 1 || n > 32768) {
    std::fprintf(stderr, "usage: egemm_demo [n]   C = A * B^T with n x n float Views, 1 <= n <= 32768 (default 1024)\n");
    std::exit(2);
  }
  return static_cast<int>(n);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const int n = demo_size(argc, argv);
  const bool on_gpu = egemm::kokkos::is_cuda_space_v<Space>;
  std::printf("EGEMM demo: C = A * B^T, %d x %d x %d, float Views on %s (%s)\n", n, n, n, Space::name(),
              on_gpu ? "CUDA backend, tensor cores" : "host fallback");
  if (egemm::cuda_available() && !egemm::emulated_fp32_uses_tensor_cores(n, n, n))
    std::printf("  note: at %d x %d, C is too small for the emulation to win on this GPU, so EmulatedFP32 hands off to FP32 SGEMM;\n"
                "        run egemm_demo 4096 to see the tensor-core emulation\n", n, n);
  if (!on_gpu && egemm::cuda_available())
    std::printf("  note: a GPU is present but this Kokkos has no CUDA backend (point Kokkos_ROOT at a CUDA Kokkos);\n"
                "        the same product runs on the GPU through EGEMM's raw-pointer API below\n");

  const Matrix A = random_matrix("A", n, n, 1), B = random_matrix("B", n, n, 2);
  Matrix C_emulated("C_emulated", n, n), C_int8("C_int8", n, n), C_fp32("C_fp32", n, n);
  const double t_emulated = timed_gemm(egemm::EmulatedFP32{}, A, B, C_emulated);
  const double t_int8 = timed_gemm(egemm::Int8Slices{}, A, B, C_int8);
  const double t_fp32 = timed_gemm(egemm::NativeFP32{}, A, B, C_fp32);

  // float64 reference of the same product on the host.
  const std::vector<float> a = to_host(A), b = to_host(B);
  std::vector<double> ref(static_cast<std::size_t>(n) * n);
  std::vector<float> unused_c(ref.size());  // beta == 0: the reference does not read C
  const egemm::GemmArgs args =
      egemm::make_gemm_args("demo", 'N', 'T', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, unused_c.data(), n);
  egemm::reference::gemm_fp64(args, ref.data());
  const auto e_emulated = egemm::reference::compare(to_host(C_emulated).data(), n, ref.data(), n, n);
  const auto e_int8 = egemm::reference::compare(to_host(C_int8).data(), n, ref.data(), n, n);
  const auto e_fp32 = egemm::reference::compare(to_host(C_fp32).data(), n, ref.data(), n, n);

  const double flop = 2.0 * n * n * n;
  std::printf("\n  %-26s %12s %12s %14s %14s\n", "path", "time [ms]", "GFLOP/s", "rel. Frob err", "max abs err");
  print_row("EmulatedFP32 (EGEMM)", t_emulated, flop, e_emulated);
  print_row("Int8Slices (EGEMM)", t_int8, flop, e_int8);
  print_row("plain FP32 (KokkosBlas)", t_fp32, flop, e_fp32);
  std::printf("\n  EmulatedFP32 error / FP32 error = %.2f (<= 1: at least FP32 accuracy)\n",
              e_emulated.rel_frobenius / e_fp32.rel_frobenius);
  std::printf("  Int8Slices error / FP32 error = %.2f (INT8 tensor cores: ~2^-24 of each row's largest element,\n"
              "  for rows of similar magnitudes; README, \"Precision policies\")\n",
              e_int8.rel_frobenius / e_fp32.rel_frobenius);
  if (!on_gpu) std::printf("  (host fallback times check correctness, not speed)\n");
#if defined(EGEMM_DEMO_RAW_CUDA)
  if (!on_gpu && egemm::cuda_available()) run_on_gpu(n, a, b, ref);
#endif
  return 0;
}
