// The rates the analytic tile model takes as measured, measured here:
// cuBLAS HGEMM (FP16 in, FP32 accumulate) on a large square product, reads of
// a buffer that stays in L2 and of one that does not.
#pragma once

#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>

#include "support/event_timing.hpp"

namespace egemm::perf {

inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(s));
}

// Every thread reads 16-byte vectors, `passes` times over the buffer; the sum
// goes to `sink` only if impossible, so the loads stay.
__global__ void read_passes(const float4* x, std::size_t n, int passes, float* sink) {
  float acc = 0;
  for (int p = 0; p < passes; ++p)
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
      const float4 v = __ldcg(x + i);  // L2, not L1
      acc += v.x + v.y + v.z + v.w;
    }
  if (acc == 1.2345e-30f) *sink = acc;
}

// Bytes per second reading `bytes` (`passes` times) with every SM busy.
inline double read_bandwidth(std::size_t bytes, int passes, cudaStream_t stream) {
  void* buffer = nullptr;
  check(cudaMalloc(&buffer, bytes + 16), "cudaMalloc read buffer");
  check(cudaMemsetAsync(buffer, 0, bytes + 16, stream), "memset read buffer");
  int device = 0, sms = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "attribute");
  const std::size_t n = bytes / sizeof(float4);
  auto* x = static_cast<const float4*>(buffer);
  float* sink = reinterpret_cast<float*>(static_cast<char*>(buffer) + bytes);
  const double s = median_seconds([&] { read_passes<<<sms * 4, 512, 0, stream>>>(x, n, passes, sink); }, 5, stream);
  check(cudaGetLastError(), "read_passes");
  (void)cudaFree(buffer);
  return static_cast<double>(bytes) * passes / s;
}

// Random FP16 in [-1, 1): constant operands draw less power and run at a
// higher clock than real data would (0x3c3c everywhere gave 856 TFLOP/s).
__global__ void fill_random_half(__half* x, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    x[i] = __float2half_rn(static_cast<float>(h >> 8) * 0x1p-23f - 1.0f);
  }
}

// cuBLAS's FP16 tensor-core rate at n^3 (FP16 A and B, FP32 C and accumulation).
inline double hgemm_flop_per_s(int n, cudaStream_t stream) {
  cublasHandle_t handle = nullptr;
  check(cublasCreate(&handle), "cublasCreate");
  check(cublasSetStream(handle, stream), "cublasSetStream");
  const std::size_t count = static_cast<std::size_t>(n) * n;
  __half *a = nullptr, *b = nullptr;
  float* c = nullptr;
  check(cudaMalloc(&a, count * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&b, count * sizeof(__half)), "cudaMalloc");
  check(cudaMalloc(&c, count * sizeof(float)), "cudaMalloc");
  fill_random_half<<<1024, 256, 0, stream>>>(a, count, 1);
  fill_random_half<<<1024, 256, 0, stream>>>(b, count, 2);
  check(cudaGetLastError(), "fill_random_half");
  const float one = 1, zero = 0;
  const double s = median_seconds(
      [&] {
        check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, b, CUDA_R_16F, n, &zero,
                           c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx");
      },
      5, stream);
  (void)cudaFree(a);
  (void)cudaFree(b);
  (void)cudaFree(c);
  (void)cublasDestroy(handle);
  return 2.0 * n * static_cast<double>(n) * n / s;
}

}  // namespace egemm::perf
