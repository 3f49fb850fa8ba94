// EGEMM demo: one 1024^3 KokkosBlas::gemm with the EmulatedFP32 tag (and
// with Int8Slices, the INT8 tensor-core path, and NormwiseFP32, which takes
// that path only where it is as accurate as FP32 in norm) on Kokkos' default execution
// space (the GPU when Kokkos was built with CUDA, else the host fallback),
// against float64 and against plain FP32 (Kokkos Kernels' gemm, and on a GPU
// cuBLAS SGEMM too: FP32 gemms differ by their order of summation). Where
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
#include <initializer_list>
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

// Seconds of one call (a gemm on Space) after a warm-up: on a GPU the median
// of 5 fenced calls (one call of ~0.1 ms is at the mercy of launch jitter); on
// the host one.
template <class Call>
double timed(const Call& call) {
  call();
  Space{}.fence();
  const int reps = egemm::kokkos::is_cuda_space_v<Space> ? 5 : 1;
  std::vector<double> seconds;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    call();
    Space{}.fence();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + reps / 2, seconds.end());
  return seconds[reps / 2];
}

template <class Tag>
double timed_gemm(Tag tag, const Matrix& A, const Matrix& B, const Matrix& C) {
  return timed([&] { KokkosBlas::gemm(Space{}, tag, "N", "T", 1.0f, A, B, 0.0f, C); });
}

void print_row(const char* path, double seconds, double flop, const egemm::reference::ErrorStats& e) {
  std::printf("  %-26s %12.2f %12.1f %14.3e %14.3e\n", path, seconds * 1e3, flop / seconds / 1e9, e.rel_frobenius,
              e.max_abs);
}

struct Baseline {
  const char* name;
  egemm::reference::ErrorStats error;
};

// A tag's error as a fraction of each FP32 gemm's on the same inputs.
void print_ratios(const char* tag, const egemm::reference::ErrorStats& e, std::initializer_list<Baseline> fp32) {
  std::printf("    %-14s", tag);
  const char* sep = "";
  for (const Baseline& b : fp32) {
    std::printf("%s%.2f of %s", sep, e.rel_frobenius / b.error.rel_frobenius, b.name);
    sep = ", ";
  }
  std::printf("\n");
}

// Which route NormwiseFP32 took, as its result shows it: Int8Slices' bits or EmulatedFP32's.
void print_normwise_route(const std::vector<float>& normwise, const std::vector<float>& int8,
                          const std::vector<float>& emulated) {
  if (normwise == int8)
    std::printf("  NormwiseFP32 took Int8Slices' digits here (its C is Int8Slices', bit for bit): every row and\n"
                "  the operands' column sums showed them at least as accurate as FP32 in norm.\n");
  else if (normwise == emulated)
    std::printf("  NormwiseFP32 ran EmulatedFP32 here (its C is EmulatedFP32's, bit for bit): the digits would not\n"
                "  have been as accurate as FP32 (uniform rows need k of ~1600 and more), or not paid at this size.\n");
}

// Where the GPU's EmulatedFP32 ran SGEMM instead of the emulation.
void print_hand_off_note(int n) {
  if (!egemm::emulated_fp32_uses_tensor_cores(n, n, n))
    std::printf("  At this size EmulatedFP32 ran cuBLAS SGEMM (the hand-off above): its error is SGEMM's.\n");
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
  const auto run = [&](auto tag, const char* path) -> egemm::reference::ErrorStats {
    std::vector<double> seconds;
    for (int rep = 0; rep < 6; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      egemm::gemm(tag, 'N', 'T', n, n, n, 1.0f, da, n, db, n, 0.0f, dc, n, stream);
      if (!cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) return {};
      if (rep > 0) seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::nth_element(seconds.begin(), seconds.begin() + 2, seconds.end());
    std::vector<float> c(static_cast<std::size_t>(n) * n);
    if (!cuda_ok(cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost), "copy C")) return {};
    const egemm::reference::ErrorStats e = egemm::reference::compare(c.data(), n, ref.data(), n, n);
    print_row(path, seconds[2], flop, e);
    return e;
  };
  const auto e_emulated = run(egemm::EmulatedFP32{}, "EmulatedFP32 (EGEMM, GPU)");
  const auto e_int8 = run(egemm::Int8Slices{}, "Int8Slices (EGEMM, GPU)");
  const auto e_normwise = run(egemm::NormwiseFP32{}, "NormwiseFP32 (EGEMM, GPU)");
  const auto e_sgemm = run(egemm::NativeFP32{}, "FP32 SGEMM (cuBLAS, GPU)");
  if (e_sgemm.rel_frobenius > 0.0) {
    std::printf("\n  error against FP32's (<= 1: at least as accurate):\n");
    print_ratios("EmulatedFP32", e_emulated, {{"FP32 SGEMM", e_sgemm}});
    print_ratios("Int8Slices", e_int8, {{"FP32 SGEMM", e_sgemm}});
    print_ratios("NormwiseFP32", e_normwise, {{"FP32 SGEMM", e_sgemm}});
    print_hand_off_note(n);
  }
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
  constexpr bool on_gpu = egemm::kokkos::is_cuda_space_v<Space>;
  std::printf("EGEMM demo: C = A * B^T, %d x %d x %d, float Views on %s (%s)\n", n, n, n, Space::name(),
              on_gpu ? "CUDA backend, tensor cores" : "host fallback");
  if (egemm::cuda_available() && !egemm::emulated_fp32_uses_tensor_cores(n, n, n))
    std::printf("  note: at %d x %d, C is too small for the emulation to win on this GPU, so EmulatedFP32 hands off to FP32 SGEMM;\n"
                "        run egemm_demo 4096 to see the tensor-core emulation\n", n, n);
  if (!on_gpu && egemm::cuda_available())
    std::printf("  note: a GPU is present but this Kokkos has no CUDA backend (point Kokkos_ROOT at a CUDA Kokkos);\n"
                "        the same product runs on the GPU through EGEMM's raw-pointer API below\n");

  const Matrix A = random_matrix("A", n, n, 1), B = random_matrix("B", n, n, 2);
  Matrix C_emulated("C_emulated", n, n), C_int8("C_int8", n, n), C_normwise("C_normwise", n, n), C_fp32("C_fp32", n, n);
  Matrix C_sgemm("C_sgemm", on_gpu ? n : 0, on_gpu ? n : 0);
  const double t_emulated = timed_gemm(egemm::EmulatedFP32{}, A, B, C_emulated);
  const double t_int8 = timed_gemm(egemm::Int8Slices{}, A, B, C_int8);
  const double t_normwise = timed_gemm(egemm::NormwiseFP32{}, A, B, C_normwise);
  const double t_fp32 = timed_gemm(egemm::NativeFP32{}, A, B, C_fp32);
  // On a CUDA Kokkos, NativeFP32 is Kokkos Kernels' own gemm; cuBLAS SGEMM (what
  // EmulatedFP32 hands small products to) on the same Views through the raw API.
  const auto sgemm = [&] {
    egemm::gemm(egemm::NativeFP32{}, 'N', 'T', n, n, n, 1.0f, A.data(), n, B.data(), n, 0.0f, C_sgemm.data(), n,
                egemm::kokkos::stream_of(Space{}));
  };
  const double t_sgemm = on_gpu ? timed(sgemm) : 0.0;

  // float64 reference of the same product on the host.
  const std::vector<float> a = to_host(A), b = to_host(B);
  std::vector<double> ref(static_cast<std::size_t>(n) * n);
  std::vector<float> unused_c(ref.size());  // beta == 0: the reference does not read C
  const egemm::GemmArgs args =
      egemm::make_gemm_args("demo", 'N', 'T', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, unused_c.data(), n);
  egemm::reference::gemm_fp64(args, ref.data());
  const auto error_of = [&](const Matrix& C) { return egemm::reference::compare(to_host(C).data(), n, ref.data(), n, n); };
  const auto e_emulated = error_of(C_emulated), e_int8 = error_of(C_int8), e_normwise = error_of(C_normwise);
  const auto e_fp32 = error_of(C_fp32);

  const double flop = 2.0 * n * n * n;
  std::printf("\n  %-26s %12s %12s %14s %14s\n", "path", "time [ms]", "GFLOP/s", "rel. Frob err", "max abs err");
  print_row("EmulatedFP32 (EGEMM)", t_emulated, flop, e_emulated);
  print_row("Int8Slices (EGEMM)", t_int8, flop, e_int8);
  print_row("NormwiseFP32 (EGEMM)", t_normwise, flop, e_normwise);
  print_row("plain FP32 (KokkosBlas)", t_fp32, flop, e_fp32);
  const auto e_sgemm = on_gpu ? error_of(C_sgemm) : egemm::reference::ErrorStats{};
  if (on_gpu) print_row("FP32 SGEMM (cuBLAS)", t_sgemm, flop, e_sgemm);
  std::printf("\n  error against FP32's (<= 1: at least as accurate):\n");
  if (on_gpu) {
    print_ratios("EmulatedFP32", e_emulated, {{"KokkosBlas FP32", e_fp32}, {"cuBLAS SGEMM", e_sgemm}});
    print_ratios("Int8Slices", e_int8, {{"KokkosBlas FP32", e_fp32}, {"cuBLAS SGEMM", e_sgemm}});
    print_ratios("NormwiseFP32", e_normwise, {{"KokkosBlas FP32", e_fp32}, {"cuBLAS SGEMM", e_sgemm}});
    print_hand_off_note(n);
    std::printf("  The two FP32 gemms sum in different orders: here Kokkos Kernels' lands at %.2f of SGEMM's error.\n",
                e_fp32.rel_frobenius / e_sgemm.rel_frobenius);
  } else {
    print_ratios("EmulatedFP32", e_emulated, {{"KokkosBlas FP32", e_fp32}});
    print_ratios("Int8Slices", e_int8, {{"KokkosBlas FP32", e_fp32}});
    print_ratios("NormwiseFP32", e_normwise, {{"KokkosBlas FP32", e_fp32}});
  }
  std::printf("  Int8Slices keeps ~2^-24 of each row's largest element: for rows of similar magnitudes\n"
              "  (README, \"Choosing a tag\").\n");
  print_normwise_route(to_host(C_normwise), to_host(C_int8), to_host(C_emulated));
  if (!on_gpu) std::printf("  (host fallback times check correctness, not speed)\n");
#if defined(EGEMM_DEMO_RAW_CUDA)
  if (!on_gpu && egemm::cuda_available()) run_on_gpu(n, a, b, ref);
#endif
  return 0;
}
