// Session 11 experiment: the host's time in each piece of EGEMM's 1024^3 hand-off to SGEMM, warm:
// mean over 20000 calls of each piece (pieces that enqueue GPU work: 2000 calls, the queue drained
// every 200), against a bare cublasSgemm. Runs 4 and 6; run 4's copy called
// emulated_fp32_fills_the_gpu(m, n) and emulated_fp32_crossover_model() before they took the
// kernel (6ea6f6b), otherwise the same program.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>
#include "backends/cuda/crossover_rates.hpp"
#include "backends/cuda/cublas_native.hpp"
#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/device_facts.hpp"
#include "backends/cuda/fused_gemm.hpp"
#include "egemm/gemm.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

using clk = std::chrono::steady_clock;
int main() {
  const int m = 1024, n = 1024, k = 1024;
  float *a, *b, *c;
  cudaMalloc(&a, 4u * m * k); cudaMalloc(&b, 4u * k * n); cudaMalloc(&c, 4u * m * n);
  cudaMemset(a, 0x3c, 4u * m * k); cudaMemset(b, 0x3c, 4u * k * n);
  cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cublasHandle_t h; cublasCreate(&h); cublasSetStream(h, s);
  const float one = 1, zero = 0;
  const egemm::GemmArgs g = egemm::make_gemm_args("x", 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m);
  volatile long sink = 0;
  struct Piece { const char* name; bool enqueues; std::function<void()> run; };
  const std::vector<Piece> pieces = {
    {"make_gemm_args (validation)", false, [&] { sink += egemm::make_gemm_args("x", 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m).m; }},
    {"require_device_memory (3 pointer queries)", false, [&] { egemm::cuda::require_device_memory(g); }},
    {"device_facts", false, [&] { sink += egemm::cuda::device_facts().sms; }},
    {"fused_kernel_for", false, [&] { sink += static_cast<int>(egemm::cuda::fused_kernel_for(egemm::PolicyId::emulated_fp32, egemm::EmulationPath::fp16_scaled)); }},
    {"fused_kernel_for + emulated_fp32_fills_the_gpu", false, [&] { sink += egemm::cuda::emulated_fp32_fills_the_gpu(egemm::cuda::fused_kernel_for(egemm::PolicyId::emulated_fp32, egemm::EmulationPath::fp16_scaled), m, n); }},
    {"fused_kernel_for + emulated_fp32_crossover_model", false, [&] { sink += static_cast<long>(egemm::cuda::emulated_fp32_crossover_model(egemm::cuda::fused_kernel_for(egemm::PolicyId::emulated_fp32, egemm::EmulationPath::fp16_scaled)).emulation_speedup); }},
    {"emulated_fp32_on_tensor_cores (all of the choice)", false, [&] { sink += egemm::cuda::emulated_fp32_on_tensor_cores(m, n, k); }},
    {"cublas_handle", false, [&] { sink += reinterpret_cast<long>(egemm::cuda::cublas_handle()) & 1; }},
    {"cublasSetStream", false, [&] { cublasSetStream(h, s); }},
    {"cudaGetDevice", false, [&] { int d; cudaGetDevice(&d); sink += d; }},
    {"cublasSgemm", true, [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
    {"native_sgemm (EGEMM's cuBLAS call)", true, [&] { egemm::cuda::native_sgemm(g, s); }},
    {"egemm::gemm NativeFP32", true, [&] { egemm::gemm(egemm::NativeFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }},
    {"egemm::gemm EmulatedFP32 (hand-off)", true, [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a, m, b, k, 0.0f, c, m, s); }},
    {"cublasSgemm (again)", true, [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m); }},
  };
  std::printf("| piece | host us per call (mean), round 1 | round 2 |\n|---|---:|---:|\n");
  for (auto& p : pieces) {
    double us[2];
    for (int round = 0; round < 2; ++round) {
      const int calls = p.enqueues ? 2000 : 20000;
      double total = 0;
      for (int done = 0; done < calls; done += 200) {
        cudaStreamSynchronize(s);
        auto t0 = clk::now();
        for (int i = 0; i < 200; ++i) p.run();
        total += std::chrono::duration<double, std::micro>(clk::now() - t0).count();
      }
      us[round] = total / calls;
    }
    std::printf("| %s | %.3f | %.3f |\n", p.name, us[0], us[1]);
  }
  cudaDeviceSynchronize();
  return 0;
}
