// Does an FP16 accumulator cost the H100's tensor cores less energy than an
// FP32 one? Under the 700 W cap the Hopper kernel's three products run at the
// clock the power allows (2026-11-23-h100-power-bound-kernel.md), so a
// cheaper accumulator for the two correction products would be the one lever
// left. This times cuBLAS half GEMMs at n^3, each configuration sustained
// for `seconds` (median of the calls in its second half), in interleaved
// rounds, on random FP16 inputs with full mantissas (what hi and lo pieces
// look like):
//   f32acc_f32c : CUBLAS_COMPUTE_32F, C in FP32 (what the kernel's products do)
//   f32acc_f16c : CUBLAS_COMPUTE_32F, C in FP16
//   f16acc_f16c : CUBLAS_COMPUTE_16F, C in FP16 (the candidate)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a accumulator_energy.cu -lcublas -o accumulator_energy
// Run alongside `nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv -lms 100`.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { std::fprintf(stderr, "CUDA %s at line %d\n", cudaGetErrorString(e), __LINE__); std::exit(1); } } while (0)
#define CB(x) do { cublasStatus_t s = (x); if (s != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "cuBLAS %d at line %d\n", (int)s, __LINE__); std::exit(1); } } while (0)

__global__ void fill_half(__half* x, size_t n, unsigned long long seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z ^= z >> 31; z *= 0xBF58476D1CE4E5B9ull; z ^= z >> 27; z *= 0x94D049BB133111EBull; z ^= z >> 31;
    x[i] = __float2half_rn((float)((z >> 40) * (1.0 / 16777216.0)) * 2.f - 1.f);
  }
}

struct Config { const char* name; cublasComputeType_t compute; cudaDataType_t c_type; };

static double wall() { timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 4.0;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 2;
  const size_t count = (size_t)n * n;
  __half *a, *b;
  void* c;
  CK(cudaMalloc(&a, count * 2)); CK(cudaMalloc(&b, count * 2)); CK(cudaMalloc(&c, count * 4));
  fill_half<<<1024, 256>>>(a, count, 1); fill_half<<<1024, 256>>>(b, count, 2);
  CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
  cublasHandle_t h; CB(cublasCreate(&h));
  const Config configs[] = {{"f32acc_f32c", CUBLAS_COMPUTE_32F, CUDA_R_32F},
                            {"f32acc_f16c", CUBLAS_COMPUTE_32F, CUDA_R_16F},
                            {"f16acc_f16c", CUBLAS_COMPUTE_16F, CUDA_R_16F}};
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("round,config,start_unix,end_unix,calls,median_ms,tflops\n");
  for (int r = 0; r < rounds; ++r)
    for (const Config& cfg : configs) {
      const float alpha32 = 1.0f, beta32 = 0.0f;
      const __half alpha16 = __float2half(1.0f), beta16 = __float2half(0.0f);
      const void* alpha = cfg.compute == CUBLAS_COMPUTE_16F ? (const void*)&alpha16 : (const void*)&alpha32;
      const void* beta = cfg.compute == CUBLAS_COMPUTE_16F ? (const void*)&beta16 : (const void*)&beta32;
      std::vector<float> times;
      const double start = wall();
      while (wall() - start < seconds) {
        CK(cudaEventRecord(e0));
        CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, alpha, a, CUDA_R_16F, n, b, CUDA_R_16F, n, beta, c,
                        cfg.c_type, n, cfg.compute, CUBLAS_GEMM_DEFAULT));
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); times.push_back(ms);
      }
      const double end = wall();
      std::vector<float> tail(times.begin() + times.size() / 2, times.end());
      std::nth_element(tail.begin(), tail.begin() + tail.size() / 2, tail.end());
      const double med = tail[tail.size() / 2];
      std::printf("%d,%s,%.3f,%.3f,%zu,%.4f,%.1f\n", r, cfg.name, start, end, times.size(), med,
                  2.0 * n * (double)n * n / (med * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
