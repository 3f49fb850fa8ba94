// CUDA backend throughput and accuracy next to the vendor baselines, in one run:
// every EGEMM policy on the GPU, cuBLAS SGEMM, and the four-call cuBLAS
// emulation of the EGEMM-TC paper ("cuBLAS-TC-Emulation": round-split on CUDA
// cores, then lo*lo, lo*hi, hi*lo, hi*hi as four cublasGemmEx FP16 calls).
//
// Timing: CUDA events around each call (manual time), after a warm-up of at least 50 ms;
// the inputs rotate over several buffer sets so the operands are not in L2
// from the previous call. Errors: relative Frobenius norm against a float64
// cublasDgemm reference on the same inputs, reduced on the GPU.
// A summary table (median time per method, TFLOP/s, ratio to SGEMM, error)
// is printed after the Google Benchmark report.
#include <benchmark/benchmark.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/median.hpp"
#include "support/presplit.hpp"
#include "support/warm_up.hpp"
#include "egemm/gemm.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/policy.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(s));
}

constexpr int buffer_sets = 3;  // 3 x (A, B) at 8192^2: 1.5 GiB, far beyond the 50 MiB L2

// --- small kernels: inputs, the paper's split, the error reduction ----------------

__global__ void fill_uniform(float* x, std::size_t n, unsigned long long seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull + seed;  // splitmix64
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = static_cast<float>(static_cast<double>(z >> 40) * 0x1p-24) * 2.0f - 1.0f;  // [-1, 1)
  }
}

__global__ void widen(const float* x, double* y, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    y[i] = x[i];
}

// The paper's round-split: hi = RN_fp16(x), lo = RN_fp16(x - hi).
__global__ void round_split(const float* x, __half* hi, __half* lo, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const __half h = __float2half_rn(x[i]);
    hi[i] = h;
    lo[i] = __float2half_rn(x[i] - __half2float(h));
  }
}

// sums[0] += (c - ref)^2, sums[1] += ref^2
__global__ void error_sums(const float* c, const double* ref, std::size_t n, double* sums) {
  double e2 = 0.0, r2 = 0.0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const double d = static_cast<double>(c[i]) - ref[i];
    e2 += d * d;
    r2 += ref[i] * ref[i];
  }
  for (int o = 16; o > 0; o /= 2) {
    e2 += __shfl_xor_sync(0xffffffffu, e2, o);
    r2 += __shfl_xor_sync(0xffffffffu, r2, o);
  }
  if (threadIdx.x % 32 == 0) {
    atomicAdd(sums, e2);
    atomicAdd(sums + 1, r2);
  }
}

constexpr int grid_blocks = 1024, block_threads = 256;

// --- one problem size's device state -----------------------------------------------

struct Problem {
  int n = 0;
  std::size_t count = 0;
  std::vector<float*> a, b;
  float* c = nullptr;
  double* ref = nullptr;  // float64 product of set 0
  __half *a_hi = nullptr, *a_lo = nullptr, *b_hi = nullptr, *b_lo = nullptr;
  double* sums = nullptr;
  cudaStream_t stream = nullptr;
  cublasHandle_t cublas = nullptr;

  explicit Problem(int size) : n(size), count(static_cast<std::size_t>(size) * size) {
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cublasCreate(&cublas), "cublasCreate");
    check(cublasSetStream(cublas, stream), "cublasSetStream");
    for (int s = 0; s < buffer_sets; ++s) {
      float *x = nullptr, *y = nullptr;
      check(cudaMalloc(&x, count * sizeof(float)), "cudaMalloc A");
      check(cudaMalloc(&y, count * sizeof(float)), "cudaMalloc B");
      fill_uniform<<<grid_blocks, block_threads, 0, stream>>>(x, count, 1000 + 2 * s);
      fill_uniform<<<grid_blocks, block_threads, 0, stream>>>(y, count, 1001 + 2 * s);
      a.push_back(x);
      b.push_back(y);
    }
    check(cudaMalloc(&c, count * sizeof(float)), "cudaMalloc C");
    for (__half** h : {&a_hi, &a_lo, &b_hi, &b_lo}) check(cudaMalloc(h, count * sizeof(__half)), "cudaMalloc half");
    check(cudaMalloc(&sums, 2 * sizeof(double)), "cudaMalloc sums");
    check(cudaMalloc(&ref, count * sizeof(double)), "cudaMalloc ref");
    double *a64 = nullptr, *b64 = nullptr;
    check(cudaMalloc(&a64, count * sizeof(double)), "cudaMalloc A64");
    check(cudaMalloc(&b64, count * sizeof(double)), "cudaMalloc B64");
    widen<<<grid_blocks, block_threads, 0, stream>>>(a[0], a64, count);
    widen<<<grid_blocks, block_threads, 0, stream>>>(b[0], b64, count);
    const double one = 1.0, zero = 0.0;
    check(cublasDgemm(cublas, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a64, n, b64, n, &zero, ref, n), "cublasDgemm");
    check(cudaStreamSynchronize(stream), "sync");
    check(cudaFree(a64), "cudaFree");
    check(cudaFree(b64), "cudaFree");
  }
  ~Problem() {
    for (float* p : a) cudaFree(p);
    for (float* p : b) cudaFree(p);
    for (void* p : {static_cast<void*>(c), static_cast<void*>(ref), static_cast<void*>(a_hi), static_cast<void*>(a_lo),
                    static_cast<void*>(b_hi), static_cast<void*>(b_lo), static_cast<void*>(sums)})
      cudaFree(p);
    cublasDestroy(cublas);
    cudaStreamDestroy(stream);
  }

  double rel_error_of_c() {
    check(cudaMemsetAsync(sums, 0, 2 * sizeof(double), stream), "memset");
    error_sums<<<grid_blocks, block_threads, 0, stream>>>(c, ref, count, sums);
    double host[2];
    check(cudaMemcpyAsync(host, sums, sizeof host, cudaMemcpyDeviceToHost, stream), "copy sums");
    check(cudaStreamSynchronize(stream), "sync");
    return std::sqrt(host[0] / host[1]);
  }
};

Problem& problem(int n) {
  static std::map<int, std::unique_ptr<Problem>> problems;
  auto& p = problems[n];
  if (!p) {
    problems.clear();  // one size at a time on the device
    problems[n] = std::make_unique<Problem>(n);
    return *problems[n];
  }
  return *p;
}

// --- the methods ---------------------------------------------------------------

using Method = std::function<void(Problem&, int set)>;

template <class Policy>
Method egemm_method() {
  return [](Problem& p, int s) {
    egemm::gemm(Policy{}, 'N', 'N', p.n, p.n, p.n, 1.0f, p.a[s], p.n, p.b[s], p.n, 0.0f, p.c, p.n, p.stream);
  };
}

void cublas_sgemm(Problem& p, int s) {
  const float one = 1.0f, zero = 0.0f;
  check(cublasSgemm(p.cublas, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.n, p.n, &one, p.a[s], p.n, p.b[s], p.n, &zero, p.c, p.n),
        "cublasSgemm");
}

void cublas_tc_emulation(Problem& p, int s) {
  round_split<<<grid_blocks, block_threads, 0, p.stream>>>(p.a[s], p.a_hi, p.a_lo, p.count);
  round_split<<<grid_blocks, block_threads, 0, p.stream>>>(p.b[s], p.b_hi, p.b_lo, p.count);
  const float one = 1.0f, zero = 0.0f;
  auto gemm_ex = [&](const __half* x, const __half* y, const float* beta) {
    check(cublasGemmEx(p.cublas, CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.n, p.n, &one, x, CUDA_R_16F, p.n, y, CUDA_R_16F, p.n,
                       beta, p.c, CUDA_R_32F, p.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  };
  gemm_ex(p.a_lo, p.b_lo, &zero);  // the paper's order: small terms first
  gemm_ex(p.a_lo, p.b_hi, &one);
  gemm_ex(p.a_hi, p.b_lo, &one);
  gemm_ex(p.a_hi, p.b_hi, &one);
}

// EmulatedFP32's split alone (stats, path verdict, split of both operands), to
// show its share of the whole call.
egemm::perf::PresplitOperands split_only;

// --- timing ----------------------------------------------------------------------

struct Row {
  std::string method;
  int n;
  double median_ms, tflops, rel_err;
};
std::vector<Row> rows;

void run_method(benchmark::State& state, const std::string& name, const Method& method, bool has_output) {
  Problem& p = problem(static_cast<int>(state.range(0)));
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  egemm::perf::warm_up([&](int call) { method(p, call % buffer_sets); }, p.stream);

  std::vector<double> ms;
  int call = 0;
  for (auto _ : state) {
    const int s = call++ % buffer_sets;
    check(cudaEventRecord(start, p.stream), "record");
    method(p, s);
    check(cudaEventRecord(stop, p.stream), "record");
    check(cudaEventSynchronize(stop), "sync");
    float t = 0.0f;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    ms.push_back(t);
    state.SetIterationTime(t * 1e-3);
  }
  const double median = egemm::perf::median_of(std::move(ms));
  const double n = static_cast<double>(p.n), flop = 2.0 * n * n * n;
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  state.SetLabel(name);
  state.counters["M"] = state.counters["N"] = state.counters["K"] = n;
  state.counters["median_ms"] = median;
  if (!has_output) {  // the split alone: a time, not a product
    rows.push_back({name, p.n, median, 0.0, NAN});
    return;
  }
  // Set 0 (the one the float64 reference is for) into a C poisoned with NaN:
  // an entry left unwritten makes the error NaN instead of passing for the
  // previous method's.
  check(cudaMemsetAsync(p.c, 0xff, p.count * sizeof(float), p.stream), "poison C");
  method(p, 0);
  const double err = p.rel_error_of_c();
  state.counters["TFLOPs"] = flop / (median * 1e-3) * 1e-12;
  state.counters["rel_fro_err"] = err;
  rows.push_back({name, p.n, median, flop / (median * 1e-3) * 1e-12, err});
}

void print_summary() {
  std::printf("\n%-26s %6s %10s %9s %12s %12s\n", "method", "n", "median_ms", "TFLOP/s", "x_SGEMM", "rel_fro_err");
  for (const Row& r : rows) {
    double sgemm = 0.0;
    for (const Row& q : rows)
      if (q.n == r.n && q.method == "cublas_sgemm") sgemm = q.median_ms;
    if (r.tflops == 0.0) {  // the split alone
      std::printf("%-26s %6d %10.4f %9s %12s %12s\n", r.method.c_str(), r.n, r.median_ms, "-", "-", "-");
      continue;
    }
    std::printf("%-26s %6d %10.4f %9.2f %12.2f %12.3e\n", r.method.c_str(), r.n, r.median_ms, r.tflops,
                sgemm > 0 ? sgemm / r.median_ms : 0.0, r.rel_err);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "bench_cuda_gemm: no CUDA device with sm_80+ visible; nothing to measure\n");
    return 0;
  }
  struct Entry {
    std::string name;
    Method method;
    bool has_output;
  };
  std::vector<Entry> entries = {{"cublas_sgemm", cublas_sgemm, true},
                                {"cublas_tc_emulation_4call", cublas_tc_emulation, true}};
  egemm::for_each_policy([&](auto tag) {
    using P = decltype(tag);
    entries.push_back({std::string("egemm_") + egemm::policy_traits<P>::name, egemm_method<P>(), true});
  });
  entries.push_back({"egemm_EmulatedFP32_split_only", [](Problem& p, int s) { split_only.split(p.a[s], p.b[s], p.n, p.n, p.n, p.stream); }, false});

  const std::vector<int> sizes = {4096, 8192};
  for (int n : sizes)
    for (const Entry& e : entries) {
      const int iterations = n >= 8192 ? 10 : 30;
      benchmark::RegisterBenchmark(("cuda/" + e.name).c_str(),
                                   [e](benchmark::State& s) { run_method(s, e.name, e.method, e.has_output); })
          ->Arg(n)
          ->UseManualTime()
          ->Iterations(iterations)
          ->Unit(benchmark::kMillisecond);
    }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_summary();
  return 0;
}
