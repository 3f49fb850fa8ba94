// Where one call's time goes on the GPU: every kernel and memset of a call,
// when it starts after the host made the call, how long it runs, and the gap
// (or, with dependent launches, the overlap) since the previous one ended;
// and the host's CUDA runtime calls (launches) beside it, which show whether
// the GPU waited for the host to enqueue. CUPTI records both
// (activity_trace.hpp), so no profiler is needed.
//
//   egemm_call_timeline [--shapes 2048x2048x2048,...] [--policies EmulatedFP32,...] [--calls N] [--csv FILE]
//
// Per shape, each policy and cuBLAS SGEMM run on fresh random inputs in
// [-1, 1] (C poisoned with NaN first, and checked to hold no NaN after: the
// call wrote all of it), are warmed up for at least 50 ms, then traced over
// N calls, each synchronised as the GEMM suite's timed calls are. stdout: one
// Markdown table per shape and method for the call of median length, and a
// summary line per method over all N calls. --csv: every traced activity of
// every call, for plot_call_timeline.py.
//
// Read differences on one side (GPU against GPU, host against host): over
// calls of several ms CUPTI's mapping of GPU timestamps onto the host clock
// drifts (perf_tests/results/2026-11-24-h100-call-timeline.md), so "call to
// its first GPU work" grows with the call's length.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "activity_trace.hpp"
#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "support/median.hpp"
#include "support/shape_list.hpp"
#include "support/warm_up.hpp"

namespace {

using egemm::perf::ActivityTrace;
using egemm::perf::Activity;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void fill_uniform(float* x, std::size_t n, unsigned long long seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned long long h = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;  // splitmix64: fresh values, never all zeros
    h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
    h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
    h ^= h >> 31;
    x[i] = static_cast<float>(h >> 40) * 0x1.0p-23f - 1.0f;  // [-1, 1)
  }
}

__global__ void count_nan(const float* x, std::size_t n, unsigned long long* count) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    mine += isnan(x[i]) ? 1 : 0;
  if (mine != 0) atomicAdd(count, mine);
}

struct Shape {
  int m, n, k;
  std::string text() const { return egemm::perf::shape_text(*this); }
};

struct Options {
  std::vector<Shape> shapes{{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  std::vector<std::string> policies{"EmulatedFP32"};
  int calls = 20;
  std::string csv;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--shapes" && has_value) {
      o.shapes = egemm::perf::parse_shapes<Shape>(argv[++i]);
    } else if (arg == "--policies" && has_value) {
      o.policies = split_list(argv[++i]);
    } else if (arg == "--calls" && has_value) {
      o.calls = std::atoi(argv[++i]);
      if (o.calls < 1) throw std::invalid_argument("--calls: at least 1");
    } else if (arg == "--csv" && has_value) {
      o.csv = argv[++i];
    } else {
      throw std::invalid_argument("unknown or incomplete argument '" + arg +
                                  "'; usage: egemm_call_timeline [--shapes MxNxK,...] [--policies Tag,...] "
                                  "[--calls N] [--csv FILE]");
    }
  }
  return o;
}

// The buffers of one shape.
struct Problem {
  Shape shape;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  std::size_t count_c = 0;
  explicit Problem(Shape s) : shape(s) {
    const std::size_t count_a = static_cast<std::size_t>(s.m) * s.k, count_b = static_cast<std::size_t>(s.k) * s.n;
    count_c = static_cast<std::size_t>(s.m) * s.n;
    check(cudaMalloc(&a, count_a * sizeof(float)), "cudaMalloc A");
    check(cudaMalloc(&b, count_b * sizeof(float)), "cudaMalloc B");
    check(cudaMalloc(&c, count_c * sizeof(float)), "cudaMalloc C");
    const unsigned long long seed = std::random_device{}();
    fill_uniform<<<1024, 256>>>(a, count_a, seed);
    fill_uniform<<<1024, 256>>>(b, count_b, seed * 3 + 1);
    check(cudaGetLastError(), "fill");
    check(cudaDeviceSynchronize(), "fill");  // the calls run on a non-blocking stream: it would not wait
  }
  ~Problem() {
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;
};

struct Method {
  std::string name;
  std::function<void(const Problem&, cudaStream_t)> run;
};

Method egemm_method(const std::string& policy) {
  Method out;
  egemm::for_each_policy([&](auto tag) {
    using Tag = decltype(tag);
    if (policy == egemm::policy_name(egemm::policy_traits<Tag>::id))
      out = {policy, [](const Problem& p, cudaStream_t s) {
               const Shape& x = p.shape;
               egemm::gemm(Tag{}, 'N', 'N', x.m, x.n, x.k, 1.0f, p.a, x.m, p.b, x.k, 0.0f, p.c, x.m, s);
             }};
  });
  if (!out.run) throw std::invalid_argument("--policies: no policy named '" + policy + "'");
  return out;
}

Method sgemm_method(cublasHandle_t handle) {
  return {"cuBLAS SGEMM", [handle](const Problem& p, cudaStream_t s) {
            const Shape& x = p.shape;
            const float one = 1.0f, zero = 0.0f;
            cublasSetStream(handle, s);
            if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, x.m, x.n, x.k, &one, p.a, x.m, p.b, x.k, &zero, p.c, x.m) !=
                CUBLAS_STATUS_SUCCESS)
              throw std::runtime_error("cublasSgemm failed");
          }};
}

// One traced call: the host's call time and its GPU activities.
struct CallTrace {
  std::uint64_t host_begin = 0, host_end = 0;  // the call made .. its stream synchronised
  std::vector<Activity> work;        // on the GPU, in order of start
  std::vector<Activity> host_calls;  // CUDA runtime calls on the host, in order of start
  double wall_us() const { return (host_end - host_begin) * 1e-3; }
  double gpu_span_us() const {
    if (work.empty()) return 0.0;
    std::uint64_t end = 0;
    for (const Activity& a : work) end = std::max(end, a.end_ns);
    return (end - work.front().start_ns) * 1e-3;
  }
};

// The activities that started inside each call's host window.
std::vector<CallTrace> assign(std::vector<CallTrace> calls, const std::vector<Activity>& all) {
  for (CallTrace& c : calls)
    for (const Activity& a : all)
      if (a.start_ns >= c.host_begin && a.start_ns <= c.host_end) (a.host ? c.host_calls : c.work).push_back(a);
  return calls;  // each call's work in order of start, as traced
}

std::vector<CallTrace> trace_calls(const Method& method, const Problem& p, cudaStream_t stream, ActivityTrace& trace,
                                   int calls) {
  egemm::perf::warm_up([&](int) { method.run(p, stream); }, stream);
  std::vector<CallTrace> out(calls);
  trace.start();
  for (CallTrace& c : out) {
    c.host_begin = ActivityTrace::now();
    method.run(p, stream);
    check(cudaStreamSynchronize(stream), "sync");
    c.host_end = ActivityTrace::now();
  }
  return assign(std::move(out), trace.stop());
}

double median(std::vector<double> v) { return egemm::perf::median_of(std::move(v)); }

// One call, kernel by kernel: start after the call, own duration, gap since the previous one ended.
void print_kernels(const CallTrace& c) {
  std::printf("| # | GPU work | blocks | starts at us (after the call) | runs us | gap us (before it; < 0: overlaps) | share of the GPU span |\n"
              "|---:|---|---:|---:|---:|---:|---:|\n");
  std::uint64_t previous_end = 0;  // 0: the first activity, which has no gap
  int i = 0;
  for (const Activity& a : c.work) {
    std::string blocks = a.grid > 0 ? std::to_string(a.grid) : "";
    if (a.cluster > 1) blocks += " (clusters of " + std::to_string(a.cluster) + ")";
    char gap[32] = "";
    if (previous_end != 0)
      std::snprintf(gap, sizeof gap, "%.1f", (static_cast<double>(a.start_ns) - previous_end) * 1e-3);
    std::printf("| %d | %s | %s | %.1f | %.1f | %s | %.1f%% |\n", ++i, a.name.c_str(), blocks.c_str(),
                (a.start_ns - c.host_begin) * 1e-3, (a.end_ns - a.start_ns) * 1e-3, gap,
                100.0 * (a.end_ns - a.start_ns) * 1e-3 / std::max(c.gpu_span_us(), 1e-9));
    previous_end = std::max(previous_end, a.end_ns);
  }
}

void print_host_calls(const CallTrace& c) {
  std::printf("\nThe same call on the host (CUDA runtime calls; the last is the benchmark's synchronisation):\n\n"
              "| runtime call | starts at us | takes us |\n|---|---:|---:|\n");
  for (const Activity& h : c.host_calls)
    std::printf("| %s | %.1f | %.1f |\n", h.name.c_str(), (h.start_ns - c.host_begin) * 1e-3, (h.end_ns - h.start_ns) * 1e-3);
}

void print_medians(const Shape& shape, const std::vector<CallTrace>& calls) {
  std::vector<double> walls, spans, firsts, busy;
  for (const CallTrace& c : calls) {
    walls.push_back(c.wall_us());
    spans.push_back(c.gpu_span_us());
    firsts.push_back(c.work.empty() ? 0.0 : (c.work.front().start_ns - c.host_begin) * 1e-3);
    double b = 0;
    for (const Activity& a : c.work) b += (a.end_ns - a.start_ns) * 1e-3;
    busy.push_back(b);
  }
  const double flop = 2.0 * shape.m * shape.n * shape.k;
  std::printf("\nMedians over the %zu calls: call to its first GPU work %.1f us; GPU span (first start to last end) "
              "%.1f us; GPU busy (sum of the kernels' times) %.1f us; call to synchronised return %.1f us "
              "(%.1f TFLOP/s on the GPU span).\n\n",
              calls.size(), median(firsts), median(spans), median(busy), median(walls),
              flop / (median(spans) * 1e-6) * 1e-12);
}

void print_call(const Shape& shape, const std::string& method, const std::vector<CallTrace>& calls) {
  std::vector<const CallTrace*> by_span;
  for (const CallTrace& c : calls) by_span.push_back(&c);
  std::sort(by_span.begin(), by_span.end(),
            [](const CallTrace* x, const CallTrace* y) { return x->gpu_span_us() < y->gpu_span_us(); });
  const CallTrace& median_call = *by_span[by_span.size() / 2];
  std::printf("### %s, %s (%zu calls traced; the call of median GPU span below)\n\n", shape.text().c_str(),
              method.c_str(), calls.size());
  print_kernels(median_call);
  print_host_calls(median_call);
  print_medians(shape, calls);
}

void write_csv(std::FILE* f, const Shape& shape, const std::string& method, const std::vector<CallTrace>& calls) {
  for (std::size_t i = 0; i < calls.size(); ++i)
    for (const Activity& a : calls[i].work)
      std::fprintf(f, "%s,%s,%zu,%s,%d,%.3f,%.3f,%.3f\n", shape.text().c_str(), method.c_str(), i, a.name.c_str(),
                   a.grid, (a.start_ns - calls[i].host_begin) * 1e-3, (a.end_ns - calls[i].host_begin) * 1e-3,
                   calls[i].wall_us());
  // Host runtime calls go to the table only: the plot draws the GPU's work.
}

// C was poisoned with NaN before the first call: any NaN left means the call did not write it.
void require_c_written(const Problem& p, const std::string& method, cudaStream_t stream) {
  unsigned long long* count = nullptr;
  check(cudaMallocAsync(&count, sizeof(*count), stream), "cudaMallocAsync");
  check(cudaMemsetAsync(count, 0, sizeof(*count), stream), "memset");
  count_nan<<<1024, 256, 0, stream>>>(p.c, p.count_c, count);
  unsigned long long host = 0;
  check(cudaMemcpyAsync(&host, count, sizeof(host), cudaMemcpyDeviceToHost, stream), "copy");
  check(cudaFreeAsync(count, stream), "cudaFreeAsync");
  check(cudaStreamSynchronize(stream), "sync");
  if (host != 0)
    throw std::runtime_error(method + " on " + p.shape.text() + " left " + std::to_string(host) +
                             " entries of the NaN-poisoned C unwritten");
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_call_timeline: no CUDA device with sm_80+ visible; nothing to trace\n");
    return 0;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "device properties");
  std::vector<Method> methods;
  for (const std::string& p : o.policies) methods.push_back(egemm_method(p));
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
  methods.push_back(sgemm_method(handle));
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");

  std::FILE* csv = nullptr;
  if (!o.csv.empty()) {
    csv = std::fopen(o.csv.c_str(), "w");
    if (csv == nullptr) throw std::runtime_error("cannot write " + o.csv);
    std::fprintf(csv, "shape,method,call,name,blocks,start_us,end_us,call_us\n");
  }
  std::printf("# One call's GPU work, traced with CUPTI on %s (%d SMs)\n\n", prop.name, prop.multiProcessorCount);
  ActivityTrace trace;
  int step = 0;
  const int steps = static_cast<int>(o.shapes.size() * methods.size());
  for (const Shape& shape : o.shapes) {
    const Problem problem(shape);
    for (const Method& method : methods) {
      std::fprintf(stderr, "[%d/%d] %s %s\n", ++step, steps, shape.text().c_str(), method.name.c_str());
      check(cudaMemsetAsync(problem.c, 0xFF, problem.count_c * sizeof(float), stream), "poison C");  // NaN
      method.run(problem, stream);
      require_c_written(problem, method.name, stream);
      const std::vector<CallTrace> calls = trace_calls(method, problem, stream, trace, o.calls);
      print_call(shape, method.name, calls);
      if (csv != nullptr) write_csv(csv, shape, method.name, calls);
    }
  }
  if (csv != nullptr) std::fclose(csv);
  cudaStreamDestroy(stream);
  cublasDestroy(handle);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "egemm_call_timeline: %s\n", e.what());
  return 1;
}
