// Host fallback throughput per policy (Google Benchmark). The host backend is
// the oracle, not a product path: this tracks that tests stay fast.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/reference.hpp"

namespace {

template <class Policy>
void bench_host(benchmark::State& state) {
  const auto n = static_cast<egemm::index_t>(state.range(0));
  std::vector<float> a(static_cast<std::size_t>(n * n)), b(a.size()), c(a.size());
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (auto* v : {&a, &b})
    for (float& x : *v) x = u(gen);
  for (auto _ : state) {
    egemm::gemm(Policy{}, 'N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  // The counters perf_tests/report.py reads: shape, rate, error vs float64.
  std::vector<double> ref(c.size());
  egemm::reference::gemm_fp64(
      egemm::make_gemm_args("bench", 'N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n), ref.data());
  const egemm::reference::ErrorStats e = egemm::reference::compare(c.data(), n, ref.data(), n, n);
  state.SetLabel(egemm::policy_traits<Policy>::name);
  state.counters["M"] = state.counters["N"] = state.counters["K"] = static_cast<double>(n);
  state.counters["TFLOPs"] = benchmark::Counter(2e-12 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["rel_fro_err"] = e.rel_frobenius;
  state.counters["max_abs_err"] = e.max_abs;
  state.counters["nonfinite"] = static_cast<double>(e.nonfinite_mismatch);
}

const bool registered = [] {
  egemm::for_each_policy([](auto tag) {
    using P = decltype(tag);
    benchmark::RegisterBenchmark((std::string("host/") + egemm::policy_traits<P>::name).c_str(), bench_host<P>)
        ->Arg(256)
        ->Arg(512)
        ->UseRealTime()  // the host fallback runs on OpenMP threads: the calling thread's CPU time undercounts
        ->Unit(benchmark::kMillisecond);
  });
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
