// What a call costs the host, where the GPU work is short: at 1024^3
// EmulatedFP32 hands the product to cuBLAS SGEMM (issue #5: never slower than
// SGEMM), so whatever EGEMM checks and decides before that shows in a timing
// that brackets one call with events. Per method, two figures:
//   enqueue us : host time per call, 200 calls in a row with no sync between
//                (the GPU works through them meanwhile)
//   call ms    : median of 50 single calls, each bracketed by events after a
//                sync (the GPU idles while the host prepares: what the GEMM
//                suite measures)
//   egemm_call_overhead [n=1024]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

__global__ void fill(float* x, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    x[i] = static_cast<float>((i * 2654435761u + seed) % 2001u) / 1000.0f - 1.0f;  // [-1, 1], never all zeros
}

}  // namespace

int main(int argc, char** argv) {
  if (!egemm::cuda_available()) {
    std::fprintf(stderr, "egemm_call_overhead: no CUDA device with sm_80+ visible; nothing to measure\n");
    return 0;
  }
  const int n = argc > 1 ? std::atoi(argv[1]) : 1024;
  const std::size_t count = static_cast<std::size_t>(n) * n;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  check(cudaMalloc(&a, count * 4), "cudaMalloc");
  check(cudaMalloc(&b, count * 4), "cudaMalloc");
  check(cudaMalloc(&c, count * 4), "cudaMalloc");
  fill<<<264, 256>>>(a, count, 1);
  fill<<<264, 256>>>(b, count, 2);
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
      {"cublas_sgemm", [&] { cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n); }},
      {"egemm_NativeFP32", [&] { egemm::gemm(egemm::NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, stream); }},
      {"egemm_EmulatedFP32", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, stream); }},
  };
  std::printf("n = %d, EmulatedFP32 on the tensor cores here: %s\n\n", n,
              egemm::emulated_fp32_uses_tensor_cores(n, n, n) ? "yes" : "no (cuBLAS SGEMM)");
  std::printf("| method | enqueue us / call | call ms (median of 50) |\n|---|---:|---:|\n");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  for (int round = 0; round < 2; ++round)  // the first round warms every path up; the second is reported
    for (const Method& m : methods) {
      constexpr int calls = 200;
      check(cudaStreamSynchronize(stream), "sync");
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) m.run();
      const double enqueue_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / calls;
      check(cudaStreamSynchronize(stream), "sync");
      std::vector<float> ms(50);
      for (float& t : ms) {
        check(cudaEventRecord(start, stream), "record");
        m.run();
        check(cudaEventRecord(stop, stream), "record");
        check(cudaEventSynchronize(stop), "sync");
        check(cudaEventElapsedTime(&t, start, stop), "elapsed");
      }
      std::nth_element(ms.begin(), ms.begin() + 25, ms.end());
      if (round == 1) std::printf("| %s | %.2f | %.4f |\n", m.name, enqueue_us, ms[25]);
    }
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
