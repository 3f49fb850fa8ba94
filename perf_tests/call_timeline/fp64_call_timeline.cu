// Where one EmulatedFP64 call's time goes on the GPU: every kernel and
// memset of a call (its split, cuBLAS's INT8 products, the entries and
// float64 kernels), traced with CUPTI after a warm-up, beside one cuBLAS DGEMM.
//
//   egemm_fp64_call_timeline [N ...]      square N^3 products (default 4096 8192), uniform [-1, 1) inputs
//
// stdout: per N, each activity's name, grid and duration, the call's GPU
// span, and DGEMM's.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "call_timeline/activity_trace.hpp"
#include "egemm/gemm.hpp"
#include "gemm_suite/check.hpp"

namespace {

__global__ void fill_uniform(double* x, std::size_t count, unsigned long long seed) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    x[i] = static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-52 - 1.0;
  }
}

double span_ms(const std::vector<egemm::perf::Activity>& acts) {
  std::uint64_t first = ~0ull, last = 0;
  for (const auto& a : acts)
    if (!a.host) {
      first = std::min(first, a.start_ns);
      last = std::max(last, a.end_ns);
    }
  return last > first ? (last - first) * 1e-6 : 0.0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atol(argv[i]));
  if (sizes.empty()) sizes = {4096, 8192};
  cudaStream_t stream;
  BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  BENCH_CUBLAS(cublasSetStream(h, stream));
  egemm::perf::ActivityTrace trace;
  for (long n : sizes) {
    const std::size_t count = static_cast<std::size_t>(n) * n;
    double *a, *b, *c;
    BENCH_CUDA(cudaMalloc(&a, count * 8));
    BENCH_CUDA(cudaMalloc(&b, count * 8));
    BENCH_CUDA(cudaMalloc(&c, count * 8));
    fill_uniform<<<1024, 256>>>(a, count, 1);
    fill_uniform<<<1024, 256>>>(b, count, 2);
    BENCH_CUDA(cudaDeviceSynchronize());
    const auto call = [&] { egemm::gemm(egemm::EmulatedFP64{}, 'N', 'N', n, n, n, 1.0, a, n, b, n, 0.0, c, n, stream); };
    const double one = 1.0, zero = 0.0;
    const auto dgemm = [&] { BENCH_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n)); };
    for (int w = 0; w < 3; ++w) call();
    BENCH_CUDA(cudaStreamSynchronize(stream));
    trace.start();
    call();
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const std::vector<egemm::perf::Activity> acts = trace.stop();
    for (int w = 0; w < 3; ++w) dgemm();
    BENCH_CUDA(cudaStreamSynchronize(stream));
    trace.start();
    dgemm();
    BENCH_CUDA(cudaStreamSynchronize(stream));
    const double dgemm_ms = span_ms(trace.stop());
    std::printf("N = %ld: EmulatedFP64 %.3f ms on the GPU, cuBLAS DGEMM %.3f ms\n", n, span_ms(acts), dgemm_ms);
    for (const auto& x : acts)
      if (!x.host) std::printf("  %-40s grid %8d  %8.3f ms\n", x.name.c_str(), x.grid, (x.end_ns - x.start_ns) * 1e-6);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
  cublasDestroy(h);
  return 0;
}
