#include "device_problem.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "check.hpp"

namespace egemm::bench {
namespace {

constexpr int grid = 1024, block = 256;

__device__ std::uint64_t mix(std::uint64_t z) {  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// outlier_below: an entry whose hash's low 32 bits fall below it is an
// outlier (2^32 times the family's density; 0 for none).
__global__ void fill(float* x, std::size_t count, std::uint64_t seed, Distribution dist, std::uint64_t outlier_below) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint64_t z = mix((i + 1) * 0x9E3779B97F4A7C15ull ^ seed);
    float u = static_cast<float>((z >> 40) * (1.0 / 16777216.0)) * 2.0f - 1.0f;
    if (dist == Distribution::wide) u = ldexpf(u, static_cast<int>((z >> 8) % 33) - 16);
    if ((z & 0xffffffffull) < outlier_below) u *= 0x1p20f;
    x[i] = u;
  }
}

__global__ void widen(const float* x, double* y, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x)
    y[i] = x[i];
}

__global__ void fill_nan(float* x, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = __int_as_float(0x7fc00000);
}

// stats: [0] sum (c - ref)^2, [1] sum ref^2, [2] max |c - ref|, [3] max |c - sgemm|, [4] nonfinite count
__global__ void error_stats(const float* c, const double* ref, const float* sgemm, std::size_t count, double* stats) {
  double se = 0, sr = 0, me = 0, ms = 0, bad = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const double v = c[i], r = ref[i];
    if (!isfinite(v)) {
      bad += 1;
      continue;
    }
    se += (v - r) * (v - r);
    sr += r * r;
    me = fmax(me, fabs(v - r));
    if (isfinite(sgemm[i])) ms = fmax(ms, fabs(v - static_cast<double>(sgemm[i])));
  }
  atomicAdd(&stats[0], se);
  atomicAdd(&stats[1], sr);
  atomicAdd(&stats[4], bad);
  auto* bits = reinterpret_cast<unsigned long long*>(stats);
  atomicMax(&bits[2], static_cast<unsigned long long>(__double_as_longlong(me)));  // non-negative doubles order as integers
  atomicMax(&bits[3], static_cast<unsigned long long>(__double_as_longlong(ms)));
}

}  // namespace

DeviceProblem::DeviceProblem(Shape shape, Distribution dist, std::uint64_t seed) : shape_(shape) {
  const std::size_t na = std::size_t(shape.m) * shape.k, nb = std::size_t(shape.k) * shape.n, nc = std::size_t(shape.m) * shape.n;
  // Enough sets that one pass over them overflows a 50 MB L2 at least three times over.
  const double set_bytes = 4.0 * double(na + nb);
  const int sets = std::clamp(static_cast<int>(std::ceil(150e6 / set_bytes)), 2, 32);
  for (int s = 0; s < sets; ++s) {
    float *a = nullptr, *b = nullptr;
    BENCH_CUDA(cudaMalloc(&a, na * 4));
    BENCH_CUDA(cudaMalloc(&b, nb * 4));
    const auto outlier_below = static_cast<std::uint64_t>(outlier_density(dist) * 4294967296.0);
    fill<<<grid, block>>>(a, na, seed + 2 * s, dist, outlier_below);
    fill<<<grid, block>>>(b, nb, seed + 2 * s + 1, dist, outlier_below);
    BENCH_CUDA(cudaGetLastError());
    a_.push_back(a);
    b_.push_back(b);
  }
  BENCH_CUDA(cudaMalloc(&c_, nc * 4));
  BENCH_CUDA(cudaMalloc(&c_sgemm_, nc * 4));
  BENCH_CUDA(cudaMalloc(&c_ref_, nc * 8));
  BENCH_CUDA(cudaMalloc(&stats_, 8 * sizeof(double)));

  // Float64 reference and SGEMM of set 0.
  double *a64 = nullptr, *b64 = nullptr;
  BENCH_CUDA(cudaMalloc(&a64, na * 8));
  BENCH_CUDA(cudaMalloc(&b64, nb * 8));
  widen<<<grid, block>>>(a_[0], a64, na);
  widen<<<grid, block>>>(b_[0], b64, nb);
  BENCH_CUDA(cudaGetLastError());
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  const double one = 1, zero = 0;
  const float onef = 1, zerof = 0;
  BENCH_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, shape.m, shape.n, shape.k, &one, a64, shape.m, b64, shape.k, &zero,
                           c_ref_, shape.m));
  BENCH_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, shape.m, shape.n, shape.k, &onef, a_[0], shape.m, b_[0], shape.k,
                           &zerof, c_sgemm_, shape.m));
  BENCH_CUDA(cudaDeviceSynchronize());
  BENCH_CUBLAS(cublasDestroy(h));
  BENCH_CUDA(cudaFree(a64));
  BENCH_CUDA(cudaFree(b64));
}

DeviceProblem::~DeviceProblem() {
  for (float* p : a_) cudaFree(p);
  for (float* p : b_) cudaFree(p);
  cudaFree(c_);
  cudaFree(c_sgemm_);
  cudaFree(c_ref_);
  cudaFree(stats_);
}

void DeviceProblem::poison_c(cudaStream_t stream) const {
  fill_nan<<<grid, block, 0, stream>>>(c_, std::size_t(shape_.m) * shape_.n);
  BENCH_CUDA(cudaGetLastError());
}

Errors DeviceProblem::errors_of_c() const {
  BENCH_CUDA(cudaMemset(stats_, 0, 8 * sizeof(double)));
  error_stats<<<grid, block>>>(c_, c_ref_, c_sgemm_, std::size_t(shape_.m) * shape_.n, stats_);
  BENCH_CUDA(cudaGetLastError());
  double h[5];
  BENCH_CUDA(cudaMemcpy(h, stats_, sizeof h, cudaMemcpyDeviceToHost));
  return {std::sqrt(h[0] / h[1]), h[2], h[3], h[4]};
}

}  // namespace egemm::bench
