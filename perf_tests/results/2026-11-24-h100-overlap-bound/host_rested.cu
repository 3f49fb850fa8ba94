// Session 11 experiment: a 1024^3 hand-off's host time after a pause, its pieces added one at a
// time, every variant interleaved round-robin (each call after 0.25 s idle) so that drift in the
// machine's state falls on all alike. Median and quartiles of `rounds` calls per variant, host us.
// Runs 6 and 8; run 6's copy lacked the last variant (the hand-off with EGEMM_SGEMM_PLANS=0), and
// native_sgemm was cublasSgemm then, cuBLASLt with a cached plan since 6246719.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>
#include <vector>
#include "backends/cuda/cublas_native.hpp"
#include "backends/cuda/cuda_gemm.hpp"
#include "egemm/gemm.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

using clk = std::chrono::steady_clock;
int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 25;
  const int m = 1024, n = 1024, k = 1024;
  float *a, *b, *c;
  cudaMalloc(&a, 4u * m * k); cudaMalloc(&b, 4u * k * n); cudaMalloc(&c, 4u * m * n);
  cudaMemset(a, 0x3c, 4u * m * k); cudaMemset(b, 0x3c, 4u * k * n);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t h; cublasCreate(&h); cublasSetStream(h, s);
  const float one = 1, zero = 0;
  const egemm::GemmArgs g = egemm::make_gemm_args("x", 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
  volatile bool sink = false;
  struct Variant { const char* name; std::function<void()> run; std::vector<double> us; const char* plans = nullptr; };
  std::vector<Variant> variants = {
    {"cublasSgemm (own handle, stream set once)", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }, {}},
    {"native_sgemm (EGEMM's handle: cudaGetDevice, map, cublasSetStream, cublasSgemm)", [&] { egemm::cuda::native_sgemm(g, s); }, {}},
    {"+ require_device_memory (3 pointer queries)", [&] { egemm::cuda::require_device_memory(g); egemm::cuda::native_sgemm(g, s); }, {}},
    {"+ the hand-off's choice (emulated_fp32_on_tensor_cores)", [&] { egemm::cuda::require_device_memory(g); sink = egemm::cuda::emulated_fp32_on_tensor_cores(m, n, k); egemm::cuda::native_sgemm(g, s); }, {}},
    {"egemm::gemm NativeFP32", [&] { egemm::gemm(egemm::NativeFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }, {}},
    {"egemm::gemm EmulatedFP32 (hand-off)", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }, {}},
    {"egemm::gemm EmulatedFP32 (hand-off), EGEMM_SGEMM_PLANS=0", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }, {}, "0"},
  };
  auto with_env = [](const Variant& v, auto&& f) {
    if (v.plans) setenv("EGEMM_SGEMM_PLANS", v.plans, 1);
    f();
    if (v.plans) unsetenv("EGEMM_SGEMM_PLANS");
  };
  for (auto& v : variants) with_env(v, [&] { for (int i = 0; i < 20; ++i) v.run(); });
  cudaDeviceSynchronize();
  for (int r = 0; r < rounds; ++r)
    for (auto& v : variants) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      with_env(v, [&] {
        const auto t0 = clk::now();
        v.run();
        v.us.push_back(std::chrono::duration<double, std::micro>(clk::now() - t0).count());
      });
      cudaDeviceSynchronize();
    }
  std::printf("| variant (%d rested calls each, interleaved) | host us: median | 25%% | 75%% |\n|---|---:|---:|---:|\n", rounds);
  for (auto& v : variants) {
    std::sort(v.us.begin(), v.us.end());
    const std::size_t q = v.us.size();
    std::printf("| %s | %.1f | %.1f | %.1f |\n", v.name, v.us[q / 2], v.us[q / 4], v.us[3 * q / 4]);
  }
  return 0;
}
