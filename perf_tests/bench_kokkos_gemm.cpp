// Stock KokkosBlas::gemm against the EGEMM-tagged KokkosBlas::gemm on the
// same float Views on Kokkos::Cuda (Google Benchmark). "Stock" is whatever
// Kokkos Kernels does for float on CUDA: cuBLAS SGEMM when it was built with
// the cuBLAS TPL, its own kernel otherwise (or EGEMM, if EGEMM_KOKKOS_GEMM_TPL
// routes it: the label says which).
//
// Each iteration is timed with CUDA events recorded on the instance's stream
// around one gemm call (manual time); the reported time and TFLOPs come from
// the median iteration. Inputs are uniform [-1, 1), drawn on the device with a
// fresh seed per run; the error counters compare the last C with a float64
// product of the same inputs (KokkosBlas::gemm on double Views).
//
//   egemm_bench_kokkos [--benchmark_filter=...] [--benchmark_out=x.json --benchmark_out_format=json]
#include <benchmark/benchmark.h>

#include <KokkosBlas3_gemm.hpp>
#include <Kokkos_Core.hpp>
#include <Kokkos_Random.hpp>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "egemm/kokkos.hpp"
#include "support/median.hpp"

namespace {

using Matrix = Kokkos::View<float**, Kokkos::LayoutLeft, Kokkos::Cuda>;
using Matrix64 = Kokkos::View<double**, Kokkos::LayoutLeft, Kokkos::Cuda>;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// The inputs of one size, shared by every variant, and their float64 product.
struct Problem {
  int n;
  Matrix a, b, c;
  Matrix64 ref;
  explicit Problem(int n_) : n(n_), a("A", n_, n_), b("B", n_, n_), c("C", n_, n_), ref("ref", n_, n_) {
    Kokkos::Random_XorShift64_Pool<Kokkos::Cuda> pool(
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    Kokkos::fill_random(a, pool, -1.0f, 1.0f);
    Kokkos::fill_random(b, pool, -1.0f, 1.0f);
    Matrix64 a64("A64", n, n), b64("B64", n, n);
    Kokkos::deep_copy(a64, a);
    Kokkos::deep_copy(b64, b);
    KokkosBlas::gemm("N", "N", 1.0, a64, b64, 0.0, ref);
    Kokkos::fence();
  }
};

std::map<int, std::unique_ptr<Problem>> problems;  // freed before Kokkos::finalize

Problem& problem(int n) {
  auto& p = problems[n];
  if (!p) p = std::make_unique<Problem>(n);
  return *p;
}

// ||C - ref||_F / ||ref||_F and max |C - ref|, on the device.
void set_error_counters(benchmark::State& state, const Problem& p) {
  const Matrix c = p.c;
  const Matrix64 ref = p.ref;
  double diff2 = 0, ref2 = 0, max_abs = 0;
  const int n = p.n;
  Kokkos::parallel_reduce(
      "egemm_bench_error", Kokkos::RangePolicy<Kokkos::Cuda>(0, n * n),
      KOKKOS_LAMBDA(int idx, double& d2, double& r2, double& mx) {
        const int i = idx % n, j = idx / n;
        const double d = static_cast<double>(c(i, j)) - ref(i, j);
        d2 += d * d;
        r2 += ref(i, j) * ref(i, j);
        mx = Kokkos::fmax(mx, Kokkos::fabs(d));  // NaN-free inputs: a NaN here is a real error
      },
      diff2, ref2, Kokkos::Max<double>(max_abs));
  state.counters["rel_fro_err"] = std::sqrt(diff2 / ref2);
  state.counters["max_abs_err"] = max_abs;
}

// Times `call` once per iteration with events on `space`'s stream.
template <class Call>
void run_timed(benchmark::State& state, const Kokkos::Cuda& space, Problem& p, const char* label, Call call) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<double> seconds;
  try {
    call();  // warm-up: workspace, handles, module load
    space.fence();
    for (auto _ : state) {
      check(cudaEventRecord(start, space.cuda_stream()), "cudaEventRecord");
      call();
      check(cudaEventRecord(stop, space.cuda_stream()), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      state.SetIterationTime(ms * 1e-3);
      seconds.push_back(ms * 1e-3);
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (seconds.empty()) return;
  const double median = egemm::perf::median_of(seconds);
  const double n = p.n;
  state.SetLabel(label);
  state.counters["M"] = state.counters["N"] = state.counters["K"] = n;
  state.counters["median_ms"] = median * 1e3;
  state.counters["TFLOPs"] = 2.0 * n * n * n / median * 1e-12;
  // Checked on a call of its own into a C poisoned with NaN: an entry left
  // unwritten shows as a NaN error, not as the previous variant's result.
  Kokkos::deep_copy(space, p.c, std::nanf(""));
  call();
  space.fence();
  set_error_counters(state, p);
}

void bench_stock(benchmark::State& state) {
  Problem& p = problem(static_cast<int>(state.range(0)));
  const Kokkos::Cuda space;
  // report.py takes kokkos/stock as the run's FP32 baseline ("x SGEMM") unless the label says it was routed.
#if defined(EGEMM_KOKKOS_GEMM_TPL)
  const char* label = "stock KokkosBlas::gemm (routed to EGEMM)";
#elif defined(KOKKOSKERNELS_ENABLE_TPL_CUBLAS)
  const char* label = "stock KokkosBlas::gemm (cuBLAS TPL)";
#else
  const char* label = "stock KokkosBlas::gemm (Kokkos Kernels kernel)";
#endif
  run_timed(state, space, p, label, [&] { KokkosBlas::gemm(space, "N", "N", 1.0f, p.a, p.b, 0.0f, p.c); });
}

template <class Policy>
void bench_tagged(benchmark::State& state) {
  Problem& p = problem(static_cast<int>(state.range(0)));
  const Kokkos::Cuda space;
  run_timed(state, space, p, egemm::policy_traits<Policy>::name,
            [&] { KokkosBlas::gemm(space, Policy{}, "N", "N", 1.0f, p.a, p.b, 0.0f, p.c); });
}

void register_all() {
  const auto sizes = [](benchmark::internal::Benchmark* b) {
    b->Arg(4096)->Arg(8192)->UseManualTime()->Iterations(20)->Unit(benchmark::kMillisecond);
  };
  sizes(benchmark::RegisterBenchmark("kokkos/stock", bench_stock));
  egemm::for_each_policy([&](auto tag) {
    using P = decltype(tag);
    sizes(benchmark::RegisterBenchmark((std::string("kokkos/egemm/") + egemm::policy_traits<P>::name).c_str(),
                                       bench_tagged<P>));
  });
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!egemm::cuda_available()) {  // a CUDA Kokkos cannot even initialise without a GPU
    std::printf("egemm_bench_kokkos: no sm_80+ GPU visible; nothing to measure\n");
    return 0;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  problems.clear();
  return 0;
}
