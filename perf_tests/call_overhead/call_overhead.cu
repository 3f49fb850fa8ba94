// What a call costs the host, where the GPU work is short: at 1024^3
// EmulatedFP32 hands the product to cuBLAS SGEMM (it must never be slower than
// SGEMM), so whatever EGEMM checks and decides before that shows in a timing
// that brackets one call with events. Per method, three figures:
//   enqueue us : host time per call, 200 calls in a row with no sync between
//                (the GPU works through them meanwhile)
//   queued ms  : GPU time per call over those 200 calls (events around the
//                whole run): what a stream of calls sees, host work hidden
//                behind the GPU's
//   call ms    : median of 50 single calls, each bracketed by events after a
//                sync (the GPU idles while the host prepares: what the GEMM
//                suite measures)
//   rested     : median of 11 single calls, each after 0.25 s idle (GPU and
//                CPU both rested, as a program's first call after a pause):
//                the call's GPU time between its events, and the host's time
//                in the call itself
// Each method's C is then checked once against a float64 reference on fresh
// random inputs, poisoned with NaN first.
//   egemm_call_overhead [m [n k]]   (n and k default to m, m to 1024)
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
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "gemm_suite/device_problem.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

}  // namespace

int main(int argc, char** argv) {
  const int m = argc > 1 ? std::atoi(argv[1]) : 1024;
  const int n = argc > 3 ? std::atoi(argv[2]) : m, k = argc > 3 ? std::atoi(argv[3]) : m;
  if (argc == 3 || argc > 4 || m <= 0 || n <= 0 || k <= 0) {
    std::fprintf(stderr, "usage: egemm_call_overhead [m [n k]] (positive sizes)\n");
    return 1;
  }
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_call_overhead: no CUDA device with sm_80+ visible; nothing to measure\n");
    return 0;
  }
  // Fresh uniform [-1, 1) inputs and their float64 product (set 0 is the one timed and checked).
  const egemm::bench::DeviceProblem problem({m, n, k}, egemm::bench::Distribution::uniform, std::random_device{}());
  const float *a = problem.a(0), *b = problem.b(0);
  float* c = problem.c();
  cudaStream_t stream = nullptr;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublasHandle_t handle = nullptr;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS || cublasSetStream(handle, stream) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("cublas handle");

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
  std::printf("| method | enqueue us / call | queued ms / call (200 in a row) | call ms (median of 50) | "
              "rested: call ms | rested: host us in the call |\n"
              "|---|---:|---:|---:|---:|---:|\n");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int round = 0; round < 2; ++round)  // the first round warms every path up; the second is reported
    for (const Method& method : methods) {
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
      std::vector<float> ms(50);
      for (float& t : ms) {
        check(cudaEventRecord(start, stream), "record");
        method.run();
        check(cudaEventRecord(stop, stream), "record");
        check(cudaEventSynchronize(stop), "sync");
        check(cudaEventElapsedTime(&t, start, stop), "elapsed");
      }
      std::nth_element(ms.begin(), ms.begin() + 25, ms.end());
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
      std::printf("| %s | %.2f | %.4f | %.4f | %.4f | %.1f |\n", method.name, enqueue_us, queued_ms / calls, ms[25],
                  rested_ms[5], rested_host_us[5]);
    }
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
  cublasDestroy(handle);
  return failures == 0 ? 0 : 1;
}
