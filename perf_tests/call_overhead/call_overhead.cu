// What a call costs the host, where the GPU work is short: at 1024^3
// EmulatedFP32 hands the product to cuBLAS SGEMM (it must never be slower than
// SGEMM), so whatever EGEMM checks and decides before that shows in a timing
// that brackets one call with events. Per method, three figures:
//   enqueue us : host time per call, 200 calls in a row with no sync between
//                (the GPU works through them meanwhile)
//   queued ms  : GPU time per call over those 200 calls (events around the
//                whole run): what a stream of calls sees, host work hidden
//                behind the GPU's
//   call ms    : median of 51 single calls, each bracketed by events after a
//                sync (the GPU idles while the host prepares: what the GEMM
//                suite measures); the methods take turns call by call, so
//                that a change of clock or of the CPU's state between
//                methods does not decide their ratio
//   rested     : median of 11 single calls, each after 0.25 s idle (GPU and
//                CPU both rested, as a program's first call after a pause):
//                the call's GPU time between its events, and the host's time
//                in the call itself
// Each method's C is then checked once against a float64 reference on fresh
// random inputs, poisoned with NaN first. Last, one verdict line per shape:
// each EGEMM method's speed relative to cuBLAS SGEMM in the same run (the
// ratio of their call ms: >= 0.98x is the target where EGEMM runs SGEMM).
//   egemm_call_overhead              (the small shapes: 256 x 256 x 4096, 512^3, 1024^3)
//   egemm_call_overhead m [n k]      (one shape; n and k default to m)
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "gemm_suite/device_problem.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}


struct Shape {
  int m, n, k;
};

// The target where EGEMM hands the product to SGEMM: at most ~2% slower than calling it directly.
constexpr double target_ratio = 0.98;

// One shape's tables; returns the number of methods whose C is wrong, and
// each EGEMM method's ratio to cuBLAS SGEMM's call ms in `ratios`.
int measure(const Shape& shape, cublasHandle_t handle, cudaStream_t stream, std::vector<std::pair<std::string, double>>& ratios) {
  const int m = shape.m, n = shape.n, k = shape.k;
  // Fresh uniform [-1, 1) inputs and their float64 product (set 0 is the one timed and checked).
  const egemm::bench::DeviceProblem problem({m, n, k}, egemm::bench::Distribution::uniform, std::random_device{}());
  const float *a = problem.a(0), *b = problem.b(0);
  float* c = problem.c();

  const float one = 1.0f, zero = 0.0f;
  struct Method {
    const char* name;
    std::function<void()> run;
  };
  const std::vector<Method> methods = {
      {"cublas_sgemm", [&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
      {"egemm_NativeFP32", [&] { egemm::gemm(egemm::NativeFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, stream); }},
      {"egemm_EmulatedFP32", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, stream); }},
  };
  std::printf("%d x %d x %d, EmulatedFP32 on the tensor cores here: %s\n\n", m, n, k,
              egemm::emulated_fp32_uses_tensor_cores(m, n, k) ? "yes" : "no (cuBLAS SGEMM)");
  std::printf("| method | enqueue us / call | queued ms / call (200 in a row) | call ms (median of 51, in turns) | "
              "rested: call ms | rested: host us in the call |\n"
              "|---|---:|---:|---:|---:|---:|\n");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  // One call of `method` bracketed by events after a sync: its ms.
  const auto single_call_ms = [&](const Method& method) {
    check(cudaStreamSynchronize(stream), "sync");
    check(cudaEventRecord(start, stream), "record");
    method.run();
    check(cudaEventRecord(stop, stream), "record");
    check(cudaEventSynchronize(stop), "sync");
    float t = 0;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    return t;
  };
  constexpr int single_calls = 51;
  std::vector<std::vector<float>> singles(methods.size());
  for (int turn = 0; turn < 3 + single_calls; ++turn)  // three turns warm every path up
    for (std::size_t which = 0; which < methods.size(); ++which) {
      const float t = single_call_ms(methods[which]);
      if (turn >= 3) singles[which].push_back(t);
    }
  std::vector<double> call_ms(methods.size());
  for (std::size_t which = 0; which < methods.size(); ++which) {
    std::vector<float>& ms = singles[which];
    std::nth_element(ms.begin(), ms.begin() + single_calls / 2, ms.end());
    call_ms[which] = ms[single_calls / 2];
  }
  for (int round = 0; round < 2; ++round)  // the first round warms every path up; the second is reported
    for (std::size_t which = 0; which < methods.size(); ++which) {
      const Method& method = methods[which];
      constexpr int calls = 200;
      check(cudaStreamSynchronize(stream), "sync");
      check(cudaEventRecord(start, stream), "record");
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) method.run();
      const double enqueue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
      check(cudaEventRecord(stop, stream), "record");
      check(cudaEventSynchronize(stop), "sync");
      float queued_ms = 0;
      check(cudaEventElapsedTime(&queued_ms, start, stop), "elapsed");
      if (round == 0) continue;
      std::vector<float> rested_ms(11);
      std::vector<double> rested_host_us(11);
      for (std::size_t r = 0; r < rested_ms.size(); ++r) {
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        check(cudaEventRecord(start, stream), "record");
        const auto h0 = std::chrono::steady_clock::now();
        method.run();
        rested_host_us[r] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - h0).count();
        check(cudaEventRecord(stop, stream), "record");
        check(cudaEventSynchronize(stop), "sync");
        check(cudaEventElapsedTime(&rested_ms[r], start, stop), "elapsed");
      }
      std::nth_element(rested_ms.begin(), rested_ms.begin() + 5, rested_ms.end());
      std::nth_element(rested_host_us.begin(), rested_host_us.begin() + 5, rested_host_us.end());
      std::printf("| %s | %.2f | %.4f | %.4f | %.4f | %.1f |\n", method.name, enqueue_us, queued_ms / calls, call_ms[which],
                  rested_ms[5], rested_host_us[5]);
    }
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  std::printf("\n| method | rel. Frobenius error vs float64 | Inf/NaN entries |\n|---|---:|---:|\n");
  int failures = 0;
  for (const Method& method : methods) {
    problem.poison_c(stream);
    method.run();
    check(cudaStreamSynchronize(stream), "sync");
    const egemm::bench::Errors e = problem.errors_of_c();
    std::printf("| %s | %.3e | %.0f |\n", method.name, e.rel_frobenius, e.nonfinite);
    failures += e.nonfinite > 0 || !(e.rel_frobenius < egemm::bench::fp32_level_rel_frobenius);  // or the call is broken
  }
  std::printf("\n");
  for (std::size_t which = 1; which < methods.size(); ++which)
    ratios.emplace_back(methods[which].name + 6, call_ms[0] / call_ms[which]);  // without "egemm_"
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<Shape> shapes = {{256, 256, 4096}, {512, 512, 512}, {1024, 1024, 1024}};
  if (argc > 1) {
    const int m = std::atoi(argv[1]);
    const int n = argc > 3 ? std::atoi(argv[2]) : m, k = argc > 3 ? std::atoi(argv[3]) : m;
    if (argc == 3 || argc > 4 || m <= 0 || n <= 0 || k <= 0) {
      std::fprintf(stderr, "usage: egemm_call_overhead [m [n k]] (positive sizes; none: the three small shapes)\n");
      return 1;
    }
    shapes = {{m, n, k}};
  }
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_call_overhead: no CUDA device with sm_80+ visible; nothing to measure\n");
    return 0;
  }
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublas handle");
  int failures = 0;
  std::vector<std::vector<std::pair<std::string, double>>> ratios(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) failures += measure(shapes[i], handle, stream, ratios[i]);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    bool met = true;
    std::string line;
    for (const auto& [name, ratio] : ratios[i]) {
      char figure[96];
      std::snprintf(figure, sizeof figure, "%s%s %.3fx", line.empty() ? "" : ", ", name.c_str(), ratio);
      line += figure;
      met = met && ratio >= target_ratio;
    }
    std::printf("verdict %d x %d x %d: %s cuBLAS SGEMM's speed (call ms, median of 51 in turns): %s the %.2fx target\n",
                shapes[i].m, shapes[i].n, shapes[i].k, line.c_str(), met ? "meets" : "BELOW", target_ratio);
  }
  cublasDestroy(handle);
  check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  return failures == 0 ? 0 : 1;
}
