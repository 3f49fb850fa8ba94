// Where one call's time goes on the GPU: every kernel and memset of a call,
// when it starts after the host made the call, how long it runs, and the gap
// (or, with dependent launches, the overlap) since the previous one ended;
// and the host's CUDA runtime calls (launches) beside it, which show whether
// the GPU waited for the host to enqueue. CUPTI records both
// (activity_trace.hpp), so no profiler is needed.
//
//   egemm_call_timeline [--shapes 2048x2048x2048,...] [--policies EmulatedFP32,...] [--calls N]
//                       [--inputs uniform|wide|outliers4|outliers5|outliers6] [--csv FILE] [--plain-launches]
//
// Per shape, each policy and cuBLAS SGEMM run on fresh random inputs in
// [-1, 1], or the suite's wide or sparse-outlier inputs (gemm_suite's DeviceProblem), are checked once against its float64
// reference (C poisoned with NaN first; the tool exits 1 if a method leaves
// an entry unwritten or its relative Frobenius error exceeds the method's
// bound), are warmed up for at least 50 ms, then traced over
// N calls, each synchronised as the GEMM suite's timed calls are. stdout: one
// Markdown table per shape and method for the call of median length, and a
// summary line per method over all N calls. --csv: every traced activity of
// every call, for plot_call_timeline.py. --plain-launches: every kernel
// launched after the previous one has completed (no programmatic dependent
// launches), so that each kernel's time is its own.
//
// Read differences on one side (GPU against GPU, host against host): over
// calls of several ms CUPTI's mapping of GPU timestamps onto the host clock
// drifts (tens of us over an 8192^3 call on an H100), so "call to its first
// GPU work" grows with the call's length.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "activity_trace.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "gemm_suite/device_problem.hpp"
#include "support/median.hpp"
#include "support/shape_list.hpp"
#include "support/warm_up.hpp"

namespace {

using egemm::perf::ActivityTrace;
using egemm::perf::Activity;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

using Shape = egemm::bench::Shape;
using Problem = egemm::bench::DeviceProblem;  // inputs (set 0 is the one traced), C and the float64 reference

std::string text(const Shape& s) { return egemm::perf::shape_text(s); }

struct Options {
  std::vector<Shape> shapes{{2048, 2048, 2048}, {4096, 4096, 4096}, {8192, 8192, 8192}};
  std::vector<std::string> policies{"EmulatedFP32"};
  int calls = 20;
  egemm::bench::Distribution inputs = egemm::bench::Distribution::uniform;
  std::string csv;
  bool plain_launches = false;
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
    } else if (arg == "--inputs" && has_value) {
      const std::string v = argv[++i];
      using egemm::bench::Distribution;
      if (v == "uniform") o.inputs = Distribution::uniform;
      else if (v == "wide") o.inputs = Distribution::wide;
      else if (v == "outliers4") o.inputs = Distribution::outliers4;
      else if (v == "outliers5") o.inputs = Distribution::outliers5;
      else if (v == "outliers6") o.inputs = Distribution::outliers6;
      else throw std::invalid_argument("--inputs: uniform, wide or outliers4..6, not '" + v + "'");
    } else if (arg == "--csv" && has_value) {
      o.csv = argv[++i];
    } else if (arg == "--plain-launches") {
      o.plain_launches = true;
    } else {
      throw std::invalid_argument("unknown or incomplete argument '" + arg +
                                  "'; usage: egemm_call_timeline [--shapes MxNxK,...] [--policies Tag,...] "
                                  "[--calls N] [--inputs uniform|wide|outliers4|outliers5|outliers6] [--csv FILE] "
                                  "[--plain-launches]");
    }
  }
  return o;
}

struct Method {
  std::string name;
  std::function<void(const Problem&, cudaStream_t)> run;
  std::function<double(const Shape&)> error_bound;  // the most relative Frobenius error a correct call shows
};

// FP32-level: what call_overhead demands of SGEMM and the FP32-accurate tags.
constexpr double fp32_error_bound = egemm::bench::fp32_level_rel_frobenius;

// A policy's bound on uniform [-1, 1) inputs, about 4x above what the suite
// measures: FP32-level, or 4x its split's representation error (Half), or,
// for tags that keep every product in the tensor core's accumulator without
// folding into FP32 each k-step, that accumulator's truncation, which grows
// with k (RoundSplit4 and TruncateSplit4 measure about k 2^-28).
template <class Policy>
double policy_error_bound(const Shape& s) {
  using traits = egemm::policy_traits<Policy>;
  double bound = std::max(fp32_error_bound, 4.0 * std::ldexp(1.0, traits::representation_error_log2));
  if (traits::emulated && !traits::fold_main_each_k_step) bound = std::max(bound, s.k * 0x1p-26);
  return bound;
}

Method egemm_method(const std::string& policy) {
  Method out;
  egemm::for_each_policy([&](auto tag) {
    using Tag = decltype(tag);
    if (policy == egemm::policy_name(egemm::policy_traits<Tag>::id))
      out = {policy,
             [](const Problem& p, cudaStream_t s) {
               const Shape x = p.shape();
               egemm::gemm(Tag{}, 'N', 'N', x.m, x.n, x.k, 1.0f, p.a(0), x.m, p.b(0), x.k, 0.0f, p.c(), x.m, s);
             },
             policy_error_bound<Tag>};
  });
  if (!out.run) throw std::invalid_argument("--policies: no policy named '" + policy + "'");
  return out;
}

Method sgemm_method(cublasHandle_t handle) {
  return {"cuBLAS SGEMM",
          [handle](const Problem& p, cudaStream_t s) {
            const Shape x = p.shape();
            const float one = 1.0f, zero = 0.0f;
            cublasSetStream(handle, s);
            if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, x.m, x.n, x.k, &one, p.a(0), x.m, p.b(0), x.k, &zero,
                            p.c(), x.m) != CUBLAS_STATUS_SUCCESS)
              throw std::runtime_error("cublasSgemm failed");
          },
          [](const Shape&) { return fp32_error_bound; }};
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

// A method's relative Frobenius error vs float64 on one checked call, and the most it may be.
struct Accuracy {
  double error, bound;
};

void print_call(const Shape& shape, const std::string& method, Accuracy accuracy, const std::vector<CallTrace>& calls) {
  std::vector<const CallTrace*> by_span;
  for (const CallTrace& c : calls) by_span.push_back(&c);
  std::sort(by_span.begin(), by_span.end(),
            [](const CallTrace* x, const CallTrace* y) { return x->gpu_span_us() < y->gpu_span_us(); });
  const CallTrace& median_call = *by_span[by_span.size() / 2];
  std::printf("### %s, %s (%zu calls traced; the call of median GPU span below)\n\n", text(shape).c_str(),
              method.c_str(), calls.size());
  std::printf("Checked first, into a NaN-poisoned C: relative Frobenius error vs float64 %.2e (bound %.1e).\n\n",
              accuracy.error, accuracy.bound);
  print_kernels(median_call);
  print_host_calls(median_call);
  print_medians(shape, calls);
}

void write_csv(std::FILE* f, const Shape& shape, const std::string& method, const std::vector<CallTrace>& calls) {
  for (std::size_t i = 0; i < calls.size(); ++i)
    for (const Activity& a : calls[i].work)
      std::fprintf(f, "%s,%s,%zu,%s,%d,%.3f,%.3f,%.3f\n", text(shape).c_str(), method.c_str(), i, a.name.c_str(),
                   a.grid, (a.start_ns - calls[i].host_begin) * 1e-3, (a.end_ns - calls[i].host_begin) * 1e-3,
                   calls[i].wall_us());
  // Host runtime calls go to the table only: the plot draws the GPU's work.
}

// One call into a NaN-poisoned C, against the float64 reference: every entry
// written and finite, the error within the method's bound; a timeline of a
// wrong result is worth nothing, so the tool stops there.
Accuracy checked_accuracy(const Problem& p, const Method& method, cudaStream_t stream) {
  p.poison_c(stream);
  method.run(p, stream);
  check(cudaStreamSynchronize(stream), "checked call");  // errors_of_c works on the legacy stream
  const egemm::bench::Errors e = p.errors_of_c();
  const std::string what = method.name + " on " + text(p.shape());
  if (e.nonfinite > 0)
    throw std::runtime_error(what + " left " + std::to_string(static_cast<long long>(e.nonfinite)) +
                             " entries of the NaN-poisoned C Inf/NaN (unwritten, or overflowed: the wide inputs overflow FP16 pieces)");
  const double bound = method.error_bound(p.shape());
  if (!(e.rel_frobenius <= bound)) {
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%.3e, above its bound %.1e", e.rel_frobenius, bound);
    throw std::runtime_error(what + ": wrong result, relative Frobenius error vs float64 " + numbers);
  }
  return {e.rel_frobenius, bound};
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  if (o.plain_launches) {
    egemm::cuda::Tuning tuning = egemm::cuda::tuning_overrides();
    tuning.dependent_launch = false;
    egemm::cuda::set_tuning_overrides(tuning);
  }
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
    const Problem problem(shape, o.inputs, std::random_device{}());
    for (const Method& method : methods) {
      std::fprintf(stderr, "[%d/%d] %s %s\n", ++step, steps, text(shape).c_str(), method.name.c_str());
      const Accuracy accuracy = checked_accuracy(problem, method, stream);
      const std::vector<CallTrace> calls = trace_calls(method, problem, stream, trace, o.calls);
      print_call(shape, method.name, accuracy, calls);
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
