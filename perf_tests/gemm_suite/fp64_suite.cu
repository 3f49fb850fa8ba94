// The suite's FP64 section (EGEMM_SUITE_FP64=1; off by default, it adds
// about as long again as the FP32 suite): EmulatedFP64, cuBLAS DGEMM and
// cuBLAS 13's fixed-point DGEMM emulation (CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT,
// default strategy, which may run native DGEMM, and EAGER, which always
// emulates) on uniform, normal and wide-exponent inputs, square 2048..16384
// and the skewed shapes. Names: fp64_<inputs>/<method>/<M>x<N>x<K>; the
// counters are the FP32 section's (report.py reads both), the errors over
// 16384 sampled entries against exact dot products, max_err_vs_dgemm in
// place of max_err_vs_sgemm.
#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "check.hpp"
#include "egemm/gemm.hpp"
#include "fp64_problem.hpp"
#include "suite_checks.hpp"
#include "support/event_timing.hpp"
#include "support/warm_up.hpp"

namespace egemm::bench {
namespace {

struct Method64 {
  std::string name;
  std::function<void(const DeviceProblem64&, int, cudaStream_t)> run;
};

std::vector<Method64> fp64_methods(cublasHandle_t h) {
  std::vector<Method64> out;
  out.push_back({"egemm_EmulatedFP64", [](const DeviceProblem64& p, int set, cudaStream_t st) {
                   const Shape s = p.shape();
                   egemm::gemm(EmulatedFP64{}, 'N', 'N', s.m, s.n, s.k, 1.0, p.a(set), s.m, p.b(set), s.k, 0.0, p.c(),
                               s.m, st);
                 }});
  const auto cublas = [h](cublasComputeType_t compute, cublasEmulationStrategy_t strategy) {
    return [h, compute, strategy](const DeviceProblem64& p, int set, cudaStream_t st) {
      const Shape s = p.shape();
      const double one = 1.0, zero = 0.0;
      BENCH_CUBLAS(cublasSetStream(h, st));
      BENCH_CUBLAS(cublasSetEmulationStrategy(h, strategy));
      BENCH_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s.m, s.n, s.k, &one, p.a(set), CUDA_R_64F, s.m, p.b(set),
                                CUDA_R_64F, s.k, &zero, p.c(), CUDA_R_64F, s.m, compute, CUBLAS_GEMM_DEFAULT));
    };
  };
  out.push_back({"cublas_dgemm", cublas(CUBLAS_COMPUTE_64F, CUBLAS_EMULATION_STRATEGY_DEFAULT)});
  out.push_back({"cublas_fp64_fixedpoint", cublas(CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_EMULATION_STRATEGY_DEFAULT)});
  out.push_back({"cublas_fp64_fixedpoint_eager",
                 cublas(CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT, CUBLAS_EMULATION_STRATEGY_EAGER)});
  return out;
}

struct Case64 {
  Distribution64 dist;
  Shape shape;
};

std::string name_of(Distribution64 d, const std::string& method, const Shape& s) {
  return std::string(dist_name(d)) + "/" + method + "/" + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
         std::to_string(s.k);
}

class Context64 {
 public:
  static Context64& of(const Case64& c) {
    static std::unique_ptr<Context64> current;
    const std::string k = name_of(c.dist, "", c.shape);
    if (!current || current->key_ != k) {
      current.reset();
      current.reset(new Context64(c, k));
    }
    return *current;
  }
  DeviceProblem64& problem() { return problem_; }
  cudaStream_t stream() const { return stream_; }
  Method64& method(const std::string& name) {
    for (auto& m : methods_)
      if (m.name == name) return m;
    std::fprintf(stderr, "no method %s\n", name.c_str());
    std::exit(1);
  }
  ~Context64() {
    methods_.clear();
    cublasDestroy(handle_);
    cudaStreamDestroy(stream_);
  }

 private:
  Context64(const Case64& c, std::string key)
      : key_(std::move(key)), problem_(c.shape, c.dist, 0x64EED000ull + c.shape.m + 7 * c.shape.k) {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    BENCH_CUBLAS(cublasCreate(&handle_));
    methods_ = fp64_methods(handle_);
  }
  std::string key_;
  DeviceProblem64 problem_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t handle_ = nullptr;
  std::vector<Method64> methods_;
};

void run_case64(benchmark::State& state, Case64 c, std::string method_name) {
  Context64& ctx = Context64::of(c);
  DeviceProblem64& p = ctx.problem();
  Method64& method = ctx.method(method_name);
  cudaStream_t stream = ctx.stream();

  p.poison_c(stream);
  method.run(p, 0, stream);
  BENCH_CUDA(cudaStreamSynchronize(stream));
  const Errors64 e = p.errors_of_c();

  time_benchmark(state, name_of(c.dist, method_name, c.shape), method_name, c.shape.m, c.shape.n, c.shape.k, 2e13,
                 p.sets(), stream, [&](int set) { method.run(p, set, stream); });
  state.counters["rel_fro_err"] = e.rel_frobenius;
  state.counters["max_abs_err"] = e.max_abs;
  state.counters["max_err_vs_dgemm"] = e.max_vs_dgemm;
  state.counters["nonfinite"] = e.nonfinite;
  state.counters["sampled_entries"] = e.sampled;
}

std::vector<Shape> fp64_shapes() {
  std::vector<Shape> out;
  for (int n : {2048, 4096, 8192, 16384}) out.push_back({n, n, n});
  for (int n : {2048, 4096, 8192}) out.push_back({n, n, 2 * n});  // (N, N, 2N)
  for (int n : {2048, 4096, 8192}) out.push_back({4 * n, n, n});  // (4N, N, N)
  return out;
}

const bool registered = [] {
  const char* v = std::getenv("EGEMM_SUITE_FP64");
  if (v == nullptr || std::strcmp(v, "1") != 0) return false;
  for (Distribution64 d : {Distribution64::uniform, Distribution64::normal, Distribution64::wide})
    for (const Shape& s : fp64_shapes())
      for (const char* m : {"egemm_EmulatedFP64", "cublas_dgemm", "cublas_fp64_fixedpoint", "cublas_fp64_fixedpoint_eager"}) {
        const std::string name = name_of(d, m, s);
        benchmark::RegisterBenchmark(name.c_str(), run_case64, Case64{d, s}, std::string(m))
            ->UseManualTime()
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
      }
  return true;
}();

}  // namespace
}  // namespace egemm::bench
