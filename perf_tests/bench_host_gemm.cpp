// Host fallback throughput per policy (Google Benchmark). The host backend is
// the oracle, not a product path: this tracks that tests stay fast.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"

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
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}

const bool registered = [] {
  egemm::for_each_policy([](auto tag) {
    using P = decltype(tag);
    benchmark::RegisterBenchmark((std::string("host/") + egemm::policy_traits<P>::name).c_str(), bench_host<P>)
        ->Arg(256)
        ->Arg(512)
        ->Unit(benchmark::kMillisecond);
  });
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
