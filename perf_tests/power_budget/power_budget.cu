// Where an EmulatedFP32 call's energy goes on a power-capped GPU. Run for
// long, a call takes at least its energy over the power limit, so on the H100
// (700 W) a sustained call is made faster only by spending fewer joules:
// hiding the split behind the gemm kernel saves at most the split's time times
// its unused share of the limit, t_split (1 - P_split / P_limit).
//
// Per shape, each piece runs in a stream of calls queued back to back (after
// a warm-up stream) while a thread reads the GPU's energy counter and SM clock
// (NVML, support/nvml_device.hpp) every 20 ms: the idle GPU; a plain copy of the
// split's bytes (A and B read, 4 bytes an element written: the least that
// moving them costs, so that what a leaner split could save shows); the split
// alone; the gemm kernel alone on the split operands (the model's tile); the
// whole call; cuBLAS SGEMM; and cuBLAS HGEMM on the hi pieces (one FP16
// product with FP32 accumulation, the vendor's energy per product: three of
// them set what the emulation's products could cost at best). The whole
// call and SGEMM are also timed one call at a time on a rested GPU (each after
// 0.25 s idle), where the limit has not yet acted. The whole call's C is
// checked against the float64 reference first.
//
//   egemm_power_budget [--shapes 8192x8192x8192,4096x4096x4096] [--seconds S]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "egemm/gemm.hpp"
#include "gemm_suite/device_problem.hpp"
#include "sm90_tiles/device_rates.cuh"
#include "support/nvml_device.hpp"
#include "support/presplit.hpp"
#include "support/shape_list.hpp"

namespace {

using egemm::bench::Shape;
using egemm::perf::check;
using Clock = std::chrono::steady_clock;

struct Options {
  std::vector<Shape> shapes{{8192, 8192, 8192}, {4096, 4096, 4096}};
  double seconds = 2.0;  // timed stream per piece
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shapes" && i + 1 < argc) {
      o.shapes = egemm::perf::parse_shapes<Shape>(argv[++i]);
    } else if (arg == "--seconds" && i + 1 < argc) {
      o.seconds = std::atof(argv[++i]);
      if (!(o.seconds >= 0.5 && o.seconds <= 30)) throw std::runtime_error("--seconds wants 0.5 to 30");
    } else {
      throw std::runtime_error("usage: egemm_power_budget [--shapes MxNxK,...] [--seconds S]");
    }
  }
  return o;
}

// The first count / 4 float4s of `from` into `to` (a tail of 1-3 floats is
// left: this copy only prices moving the bytes).
__global__ void copy_floats(const float4* from, float4* to, std::size_t count) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count / 4;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    to[i] = __ldg(from + i);
}

// One piece's figures over its timed stream.
struct Reading {
  double seconds_per_call = 0;  // 0 for the idle GPU
  double watts = 0;             // from the energy counter, first to last sample
  double sm_mhz = 0;            // mean of the samples
};

// Reads (time, energy, clock) every 20 ms until stopped.
class Sampler {
 public:
  explicit Sampler(const egemm::perf::NvmlDevice& nvml) : nvml_(nvml), thread_([this] { loop(); }) {}
  ~Sampler() { stop(); }
  void stop() {
    done_ = true;
    if (thread_.joinable()) thread_.join();
  }
  // Watts between the first and the last sample; the mean SM clock.
  Reading reading() const {
    Reading r;
    if (samples_.size() < 2) return r;
    const Sample &first = samples_.front(), &last = samples_.back();
    const double seconds = std::chrono::duration<double>(last.at - first.at).count();
    r.watts = (last.millijoules - first.millijoules) * 1e-3 / seconds;
    for (const Sample& s : samples_) r.sm_mhz += s.sm_mhz;
    r.sm_mhz /= static_cast<double>(samples_.size());
    return r;
  }

 private:
  struct Sample {
    Clock::time_point at;
    double millijoules;
    unsigned sm_mhz;
  };
  void loop() {
    while (!done_) {
      samples_.push_back({Clock::now(), nvml_.millijoules(), nvml_.sm_clock_mhz()});
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  const egemm::perf::NvmlDevice& nvml_;
  std::vector<Sample> samples_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// `call` queued back to back: ~0.3 s of warm-up calls (the power cap
// reached), then ~`seconds` of timed calls with the sampler running.
Reading stream_of(const std::function<void()>& call, double seconds, const egemm::perf::NvmlDevice& nvml,
                  cudaStream_t stream) {
  const double one = egemm::perf::queued_seconds(call, 3, 1, stream);
  const int warmup = std::clamp(static_cast<int>(0.3 / one), 2, 20000);
  const int calls = std::clamp(static_cast<int>(seconds / one), 3, 100000);
  for (int i = 0; i < warmup; ++i) call();
  check(cudaStreamSynchronize(stream), "warm-up");
  Sampler sampler(nvml);
  const double per_call = egemm::perf::queued_seconds(call, calls, 0, stream);
  sampler.stop();
  Reading r = sampler.reading();
  r.seconds_per_call = per_call;
  return r;
}

Reading idle_for(double seconds, const egemm::perf::NvmlDevice& nvml) {
  Sampler sampler(nvml);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  sampler.stop();
  return sampler.reading();
}

void print_row(const char* piece, const Reading& r) {
  if (r.seconds_per_call > 0)
    std::printf("| %s | %.3f | %.0f | %.3f | %.0f |\n", piece, r.seconds_per_call * 1e3, r.watts,
                r.watts * r.seconds_per_call, r.sm_mhz);
  else
    std::printf("| %s | | %.0f | | %.0f |\n", piece, r.watts, r.sm_mhz);
}

void budget(Shape s, double seconds, const egemm::perf::NvmlDevice& nvml, cublasHandle_t handle,
            cudaStream_t stream) {
  const std::string name = egemm::perf::shape_text(s);
  std::fprintf(stderr, "%s: inputs and float64 reference...\n", name.c_str());
  egemm::bench::DeviceProblem problem(s, egemm::bench::Distribution::uniform, 11);
  const float* a = problem.a(0);
  const float* b = problem.b(0);
  float* c = problem.c();
  const double flops = 2.0 * s.m * static_cast<double>(s.n) * s.k;

  egemm::perf::PresplitOperands split;
  const egemm::GemmArgs g =
      egemm::make_gemm_args("power budget", 'N', 'N', s.m, s.n, s.k, 1.0f, a, s.m, b, s.k, 0.0f, c, s.m);
  const auto split_alone = [&] { split.split(a, b, s.m, s.n, s.k, stream); };
  const auto kernel_alone = [&] {
    egemm::cuda::launch_fused_gemm(egemm::PolicyId::emulated_fp32, split.a, split.b, g, split.path_word,
                                   egemm::EmulationPath::fp16_scaled, stream);
  };
  const auto whole_call = [&] {
    egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', s.m, s.n, s.k, 1.0f, a, s.m, b, s.k, 0.0f, c, s.m, stream);
  };
  // A into A's hi piece, B into B's (each has room for 4-byte TF32 pieces).
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
  const auto plain_copy = [&] {
    copy_floats<<<sms * 8, 256, 0, stream>>>(reinterpret_cast<const float4*>(a),
                                             static_cast<float4*>(split.a.piece[0]), std::size_t{1} * s.m * s.k);
    copy_floats<<<sms * 8, 256, 0, stream>>>(reinterpret_cast<const float4*>(b),
                                             static_cast<float4*>(split.b.piece[0]), std::size_t{1} * s.k * s.n);
    check(cudaGetLastError(), "copy_floats");
  };
  const float one = 1.0f, zero = 0.0f;
  const auto sgemm = [&] {
    check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, s.m, s.n, s.k, &one, a, s.m, b, s.k, &zero, c, s.m),
          "cublasSgemm");
  };
  // The hi pieces are K-major (row r of op(A) at r * depth_pad): op(A)^T and B, column-major.
  const auto hgemm = [&] {
    check(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, s.m, s.n, s.k, &one, split.a.piece[0], CUDA_R_16F,
                       static_cast<int>(split.a.depth_pad), split.b.piece[0], CUDA_R_16F,
                       static_cast<int>(split.b.depth_pad), &zero, c, CUDA_R_32F, s.m, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  };

  problem.poison_c(stream);
  whole_call();
  check(cudaStreamSynchronize(stream), "whole call");
  const egemm::bench::Errors e = problem.errors_of_c();
  split_alone();  // the kernel alone reads these pieces
  check(cudaStreamSynchronize(stream), "split");

  std::fprintf(stderr, "%s: idle, copy, split, kernel, whole call, SGEMM, HGEMM (%.1f s each)...\n", name.c_str(), seconds);
  const Reading idle = idle_for(1.0, nvml);
  const Reading copy = stream_of(plain_copy, seconds, nvml, stream);
  split_alone();  // the copy overwrote the pieces the kernel alone reads
  const Reading rs = stream_of(split_alone, seconds, nvml, stream);
  const Reading rk = stream_of(kernel_alone, seconds, nvml, stream);
  const Reading rc = stream_of(whole_call, seconds, nvml, stream);
  const Reading rsg = stream_of(sgemm, seconds, nvml, stream);
  const Reading rh = stream_of(hgemm, seconds, nvml, stream);
  const double call_rested = egemm::perf::rested_seconds(whole_call, 5, 0.25, stream);
  const double sgemm_rested = egemm::perf::rested_seconds(sgemm, 5, 0.25, stream);

  std::printf("\n### %s (uniform [-1, 1] inputs; the whole call's relative Frobenius error vs float64: %.2e)\n\n",
              name.c_str(), e.nonfinite > 0 ? INFINITY : e.rel_frobenius);
  std::printf("| piece, in a stream of calls | ms / call | W | J / call | SM MHz |\n|---|---:|---:|---:|---:|\n");
  print_row("idle GPU", idle);
  print_row("a plain copy of the split's bytes (read A, B; write 4 bytes an element)", copy);
  print_row("EmulatedFP32's split of A and B", rs);
  print_row("gemm kernel alone (the model's tile)", rk);
  print_row("whole EmulatedFP32 call", rc);
  print_row("cuBLAS SGEMM", rsg);
  print_row("cuBLAS HGEMM on the hi pieces (one FP16 product)", rh);

  const double limit = nvml.power_limit_w();
  const double call_joules = rc.watts * rc.seconds_per_call;
  const double bound = std::max(rk.seconds_per_call, call_joules / limit);
  std::printf("\nWhole call: %.3f ms, %.1f TFLOP/s, %.2fx SGEMM. Split + kernel one after the other: %.3f ms.\n",
              rc.seconds_per_call * 1e3, flops / rc.seconds_per_call * 1e-12,
              rsg.seconds_per_call / rc.seconds_per_call, (rs.seconds_per_call + rk.seconds_per_call) * 1e3);
  std::printf("The split draws %.0f W of the %.0f W limit for %.3f ms: hidden behind the kernel it would save at most "
              "%.3f ms.\n",
              rs.watts, limit, rs.seconds_per_call * 1e3,
              rs.seconds_per_call * std::max(0.0, 1.0 - rs.watts / limit) * 1e3);
  std::printf("The split is %.1f%% of the call's energy (%.3f of %.3f J). A call can take no less than max(kernel "
              "alone, its energy / limit) = max(%.3f, %.3f) = %.3f ms (%.1f TFLOP/s, %.2fx SGEMM): ",
              100.0 * rs.watts * rs.seconds_per_call / call_joules, rs.watts * rs.seconds_per_call, call_joules,
              rk.seconds_per_call * 1e3, call_joules / limit * 1e3, bound * 1e3, flops / bound * 1e-12,
              rsg.seconds_per_call / bound);
  if (rc.seconds_per_call <= 1.01 * bound)
    std::printf("the call runs at that bound; only less energy per call makes it faster.\n");
  else
    std::printf("at most %.1f%% faster than now.\n", 100.0 * (rc.seconds_per_call / bound - 1.0));
  std::printf("One call on a rested GPU (median of 5, each after 0.25 s idle): %.3f ms, %.1f TFLOP/s, %.2fx SGEMM "
              "(%.3f ms).\n",
              call_rested * 1e3, flops / call_rested * 1e-12, sgemm_rested / call_rested, sgemm_rested * 1e3);
  const double split_extra = rs.watts * rs.seconds_per_call - copy.watts * copy.seconds_per_call;
  const double three_products = 3 * rh.watts * rh.seconds_per_call;
  std::printf("The gemm kernel's three products cost %.3f J, %.2fx three HGEMMs' %.3f J: at three HGEMMs' energy "
              "and the limit a call's products would take %.3f ms (%.1f TFLOP/s).\n",
              rk.watts * rk.seconds_per_call, rk.watts * rk.seconds_per_call / three_products, three_products,
              three_products / limit * 1e3, flops / (three_products / limit) * 1e-12);
  std::printf("The split costs %.3f J a call more than a plain copy of its bytes: a split that moved them for no "
              "more would save %.3f ms of a sustained call (%.1f%%).\n",
              split_extra, std::max(0.0, split_extra) / limit * 1e3,
              100.0 * std::max(0.0, split_extra) / limit / rc.seconds_per_call);
}

}  // namespace

int main(int argc, char** argv) try {
  const Options options = parse(argc, argv);
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_power_budget: no CUDA device with tensor cores; nothing to measure\n");
    return 0;
  }
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  char bus[32] = {};
  check(cudaDeviceGetPCIBusId(bus, sizeof bus, device), "cudaDeviceGetPCIBusId");
  const egemm::perf::NvmlDevice nvml(bus);
  if (!nvml.available()) {
    std::fprintf(stderr, "egemm_power_budget: NVML's energy counter is not available (libnvidia-ml.so.1, Volta+)\n");
    return 2;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublasHandle_t handle = nullptr;
  check(cublasCreate(&handle), "cublasCreate");
  check(cublasSetStream(handle, stream), "cublasSetStream");

  std::printf("# Power budget of EmulatedFP32 on %s (power limit %.0f W)\n", prop.name, nvml.power_limit_w());
  for (const Shape& s : options.shapes) budget(s, options.seconds, nvml, handle, stream);
  (void)cublasDestroy(handle);
  (void)cudaStreamDestroy(stream);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "egemm_power_budget: %s\n", e.what());
  return 1;
}
