// The GEMM suite: every EGEMM tag and every cuBLAS baseline on the paper's
// shapes, uniform, wide-exponent and sparse-outlier inputs (device_problem.hpp),
// in one run on one GPU.
//
//   egemm_bench_suite [--benchmark_filter=REGEX] [--benchmark_out=suite.json --benchmark_out_format=json]
//
// Names: <distribution>/<method>/<M>x<N>x<K>, the distribution uniform, wide,
// outliers4, outliers5 or outliers6. EGEMM_SUITE_FP64=1 adds the FP64 section
// (fp64_suite.cu: fp64_<inputs>/<method>/<M>x<N>x<K>). Each benchmark first checks the
// method's result (C poisoned with NaN, then error vs float64 and vs SGEMM),
// then times `reps` runs with CUDA events over rotating input sets after a
// warm-up of at least 50 ms (support/warm_up.hpp) and reports the median as
// the iteration time (manual time). Such calls run at whatever clock the
// work before left on a power-capped GPU; with EGEMM_SUITE_REGIMES=1 each
// benchmark also times the two well-defined regimes (support/event_timing.hpp):
// one call on a rested GPU (median of 5, each after 0.25 s idle) and
// sustained (~1 s of calls queued after ~1 s of them: half a second of
// load brings the clock down to the limit, the next second the temperature
// up; 0.3 s after 0.2 s read 5% above egemm_power_budget's 2 s streams on an
// H100), ~3.5 s more each.
// Counters (what perf_tests/report.py reads): M, N, K, TFLOPs, rel_fro_err,
// max_abs_err, max_err_vs_sgemm, nonfinite, and with the regimes
// TFLOPs_rested and TFLOPs_sustained; where NVML answers, gpu_temperature_c
// and thermal_slowdown (1 when the GPU was slowing down for heat or a
// hardware signal as the timing ended: such figures are not comparable, and
// the suite says so on stderr and report.py in its table); the label is the
// method.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "suite_checks.hpp"
#include "device_problem.hpp"
#include "methods.hpp"
#include "support/event_timing.hpp"
#include "support/nvml_device.hpp"
#include "support/warm_up.hpp"

namespace egemm::bench {
namespace {

struct Case {
  Distribution dist;
  Shape shape;
};

const char* dist_name(Distribution d) {
  switch (d) {
    case Distribution::uniform: return "uniform";
    case Distribution::wide: return "wide";
    case Distribution::outliers4: return "outliers4";
    case Distribution::outliers5: return "outliers5";
    case Distribution::outliers6: return "outliers6";
  }
  return "unknown";
}

// <distribution>/<method>/<M>x<N>x<K>, as registered and as the warnings name it.
std::string benchmark_name(Distribution d, const std::string& method, const Shape& s) {
  return std::string(dist_name(d)) + "/" + method + "/" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

std::vector<Shape> suite_shapes() {
  std::vector<Shape> out;
  for (int n : {1024, 2048, 4096, 8192, 16384}) out.push_back({n, n, n});
  for (int n : {1024, 2048, 4096, 8192}) out.push_back({n, n, 2 * n});      // (N, N, 2N)
  for (int n : {1024, 2048, 4096, 8192}) out.push_back({4 * n, n, n});      // (4N, N, N)
  return out;
}

// The inputs and methods of the case being run; rebuilt when the case changes,
// so only one problem's buffers live at a time.
class Context {
 public:
  static Context& of(const Case& c) {
    static std::unique_ptr<Context> current;
    if (!current || current->key_ != key(c)) {
      current.reset();  // free the previous problem first
      current.reset(new Context(c));
    }
    return *current;
  }
  DeviceProblem& problem() { return problem_; }
  Method& method(const std::string& name) {
    for (auto& m : methods_)
      if (m->name() == name) return *m;
    std::fprintf(stderr, "no method %s\n", name.c_str());
    std::exit(1);
  }
  cudaStream_t stream() const { return stream_; }
  ~Context() {
    methods_.clear();
    cublasDestroy(handle_);
    cudaStreamDestroy(stream_);
  }

 private:
  static std::string key(const Case& c) {
    return std::string(dist_name(c.dist)) + std::to_string(c.shape.m) + "x" + std::to_string(c.shape.n) + "x" +
           std::to_string(c.shape.k);
  }
  explicit Context(const Case& c) : key_(key(c)), problem_(c.shape, c.dist, 0x5EED0000ull + c.shape.m + 7 * c.shape.k) {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    BENCH_CUBLAS(cublasCreate(&handle_));
    methods_ = egemm_methods();
    for (auto& m : cublas_methods(problem_, handle_)) methods_.push_back(std::move(m));
  }
  std::string key_;
  DeviceProblem problem_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  std::vector<std::unique_ptr<Method>> methods_;
};

void run_case(benchmark::State& state, Case c, std::string method_name) {
  Context& ctx = Context::of(c);
  DeviceProblem& p = ctx.problem();
  Method& method = ctx.method(method_name);
  cudaStream_t stream = ctx.stream();

  // Correctness first: every entry written, error against float64 and SGEMM.
  p.poison_c(stream);
  method.run(p, 0, stream);
  BENCH_CUDA(cudaStreamSynchronize(stream));
  const Errors e = p.errors_of_c();

  time_benchmark(state, benchmark_name(c.dist, method_name, c.shape), method_name, c.shape.m, c.shape.n, c.shape.k,
                 4e13, p.sets(), stream, [&](int set) { method.run(p, set, stream); });
  state.counters["rel_fro_err"] = e.rel_frobenius;
  state.counters["max_abs_err"] = e.max_abs;
  state.counters["max_err_vs_sgemm"] = e.max_vs_sgemm;
  state.counters["nonfinite"] = e.nonfinite;
}

// Method names without building a problem: the egemm tags plus the fixed cuBLAS list.
std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (auto& m : egemm_methods()) names.push_back(m->name());
  for (const char* n : {"cublas_sgemm", "cublas_tf32", "cublas_bf16x9", "cublas_half", "cublas_tc_emulation",
                        "cublas_markidis", "cublas_ootomo3"})
    names.push_back(n);
  return names;
}

const bool registered = [] {
  for (Distribution d : {Distribution::uniform, Distribution::wide, Distribution::outliers4, Distribution::outliers5,
                         Distribution::outliers6})
    for (const Shape& s : suite_shapes())
      for (const std::string& m : method_names()) {
        const std::string name = benchmark_name(d, m, s);
        benchmark::RegisterBenchmark(name.c_str(), run_case, Case{d, s}, m)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
  return true;
}();

}  // namespace
}  // namespace egemm::bench

BENCHMARK_MAIN();
