// The GEMM suite: every EGEMM tag and every cuBLAS baseline on the paper's
// shapes, uniform and wide-exponent inputs, in one run on one GPU.
//
//   egemm_bench_suite [--benchmark_filter=REGEX] [--benchmark_out=suite.json --benchmark_out_format=json]
//
// Names: <distribution>/<method>/<M>x<N>x<K>. Each benchmark first checks the
// method's result (C poisoned with NaN, then error vs float64 and vs SGEMM),
// then reports the median of `reps` runs timed with CUDA events over rotating
// input sets as the iteration time (manual time). The first benchmark of a
// case (inputs and shape) times every method of the case the filter selects:
// each warmed up for at least 50 ms (support/warm_up.hpp), then `reps` rounds
// of one call of each, the order rotated every round, so that no method meets
// a GPU the others' whole runs heated. Such calls run at whatever clock the
// work before left on a power-capped GPU; with EGEMM_SUITE_REGIMES=1 each
// benchmark also times the two well-defined regimes (support/event_timing.hpp):
// one call on a rested GPU (median of 5, each after 0.25 s idle) and
// sustained (~1 s of calls queued after ~1 s of them: half a second of
// load brings the clock down to the limit, the next second the temperature
// up; run 11 of results/2026-11-24-h100-rested-sweep.md had 0.2 + 0.3 s and
// read 5% above the power budget's 2 s streams), ~3.5 s more each.
// Counters (what perf_tests/report.py reads): M, N, K, TFLOPs, rel_fro_err,
// max_abs_err, max_err_vs_sgemm, nonfinite, and with the regimes
// TFLOPs_rested and TFLOPs_sustained; the label is the method.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "check.hpp"
#include "support/event_timing.hpp"
#include "support/shape_list.hpp"
#include "support/warm_up.hpp"
#include "device_problem.hpp"
#include "methods.hpp"

namespace egemm::bench {
namespace {

struct Case {
  Distribution dist;
  Shape shape;
};

const char* dist_name(Distribution d) { return d == Distribution::uniform ? "uniform" : "wide"; }

bool regimes_requested() {
  const char* v = std::getenv("EGEMM_SUITE_REGIMES");
  return v != nullptr && std::strcmp(v, "1") == 0;
}

std::vector<Shape> suite_shapes() {
  std::vector<Shape> out;
  for (int n : {1024, 2048, 4096, 8192, 16384}) out.push_back({n, n, n});
  for (int n : {1024, 2048, 4096, 8192}) out.push_back({n, n, 2 * n});      // (N, N, 2N)
  for (int n : {1024, 2048, 4096, 8192}) out.push_back({4 * n, n, n});      // (4N, N, N)
  return out;
}

std::string benchmark_name(const Case& c, const std::string& method) {
  return std::string(dist_name(c.dist)) + "/" + method + "/" + perf::shape_text(c.shape);
}

// Whether --benchmark_filter runs the benchmark `name`, matched as Google
// Benchmark matches it: an extended regular expression searched in the
// instance's full name, a leading '-' negating it.
bool filter_selects(const std::string& name) {
  std::string spec = benchmark::GetBenchmarkFilter();
  if (spec.empty() || spec == "all") spec = ".";
  const bool negative = spec[0] == '-';
  if (negative) spec.erase(0, 1);
  const std::string instance = name + "/iterations:1/manual_time";  // as registered below
  return std::regex_search(instance, std::regex(spec, std::regex::extended)) != negative;
}

// Timed runs per method: more for short calls, 5 to 40.
int reps_for(Shape s) { return std::clamp(static_cast<int>(4e13 / (2.0 * s.m * double(s.n) * s.k)), 5, 40); }

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
  // The median seconds of `name`'s timed calls, interleaved with the case's
  // other selected methods on the first request.
  double median_seconds(const std::string& name) {
    if (medians_.empty()) medians_ = interleaved_medians(selected_methods());
    if (medians_.count(name) == 0) medians_[name] = interleaved_medians({&method(name)})[name];  // filter misread
    return medians_[name];
  }
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
  explicit Context(const Case& c) : key_(key(c)), case_(c), problem_(c.shape, c.dist, 0x5EED0000ull + c.shape.m + 7 * c.shape.k) {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    BENCH_CUBLAS(cublasCreate(&handle_));
    methods_ = egemm_methods();
    for (auto& m : cublas_methods(problem_, handle_)) methods_.push_back(std::move(m));
  }
  std::vector<Method*> selected_methods() {
    std::vector<Method*> out;
    for (auto& m : methods_)
      if (filter_selects(benchmark_name(case_, m->name()))) out.push_back(m.get());
    return out;
  }
  // Every method warmed up, then reps_for rounds of one synchronised call of
  // each, the order rotated every round, so all meet the same clock and heat;
  // timed one method after another, each met the heat of the whole runs
  // before it (every egemm tag ran before SGEMM).
  std::map<std::string, double> interleaved_medians(const std::vector<Method*>& ms) {
    for (Method* m : ms) perf::warm_up([&](int call) { m->run(problem_, call % problem_.sets(), stream_); }, stream_);
    perf::EventTimer timer(stream_);
    std::vector<std::vector<double>> seconds(ms.size());
    const int reps = reps_for(case_.shape);
    for (int r = 0; r < reps; ++r)
      for (std::size_t i = 0; i < ms.size(); ++i) {
        const std::size_t j = (i + r) % ms.size();
        seconds[j].push_back(timer.seconds([&] { ms[j]->run(problem_, r % problem_.sets(), stream_); }));
      }
    std::map<std::string, double> out;
    for (std::size_t j = 0; j < ms.size(); ++j) out[ms[j]->name()] = perf::median_of(seconds[j]);
    return out;
  }
  std::string key_;
  Case case_;
  DeviceProblem problem_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  std::vector<std::unique_ptr<Method>> methods_;
  std::map<std::string, double> medians_;  // the default regime's, per method
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

  const double flop = 2.0 * c.shape.m * double(c.shape.n) * c.shape.k;
  const double median_s = ctx.median_seconds(method_name);

  for (auto _ : state) state.SetIterationTime(median_s);
  state.SetLabel(method_name);
  state.counters["M"] = c.shape.m;
  state.counters["N"] = c.shape.n;
  state.counters["K"] = c.shape.k;
  state.counters["TFLOPs"] = flop / median_s * 1e-12;
  state.counters["rel_fro_err"] = e.rel_frobenius;
  state.counters["max_abs_err"] = e.max_abs;
  state.counters["max_err_vs_sgemm"] = e.max_vs_sgemm;
  state.counters["nonfinite"] = e.nonfinite;
  state.counters["reps"] = reps_for(c.shape);
  if (regimes_requested()) {
    int call = 0;
    const auto next = [&] { method.run(p, call++ % p.sets(), stream); };
    const double rested_s = perf::rested_seconds(next, 5, 0.25, stream);
    const int one_second = std::clamp(static_cast<int>(1.0 / median_s), 3, 20000);
    const double sustained_s = perf::queued_seconds(next, one_second, one_second, stream);
    state.counters["TFLOPs_rested"] = flop / rested_s * 1e-12;
    state.counters["TFLOPs_sustained"] = flop / sustained_s * 1e-12;
  }
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
  for (Distribution d : {Distribution::uniform, Distribution::wide})
    for (const Shape& s : suite_shapes())
      for (const std::string& m : method_names()) {
        const Case c{d, s};
        benchmark::RegisterBenchmark(benchmark_name(c, m).c_str(), run_case, c, m)
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
  return true;
}();

}  // namespace
}  // namespace egemm::bench

BENCHMARK_MAIN();
