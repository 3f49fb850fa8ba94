// The FP64 section's inputs and error measures (fp64_problem.hpp).
#include "fp64_problem.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <cmath>

#include "check.hpp"

namespace egemm::bench {
namespace {

constexpr int grid = 1024, block = 256;
constexpr int sample_count = 16384;  // >= 10^4 entries per case

__device__ std::uint64_t mix64(std::uint64_t z) {  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

__device__ double unit(std::uint64_t z) { return static_cast<double>(z >> 11) * 0x1p-53; }  // [0, 1)

__global__ void fill64(double* x, std::size_t count, std::uint64_t seed, Distribution64 dist) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x) {
    const std::uint64_t z = mix64((i + 1) * 0x9E3779B97F4A7C15ull ^ seed);
    double v = unit(z) * 2.0 - 1.0;
    if (dist == Distribution64::normal) {  // Box-Muller
      const double u2 = unit(mix64(z ^ 0xD1B54A32D192ED03ull));
      v = sqrt(-2.0 * log(fmax(unit(z), 0x1p-60))) * cospi(2.0 * u2);
    } else if (dist == Distribution64::wide) {
      v = ldexp(v, static_cast<int>(mix64(z + 17) % 33) - 16);
    }
    x[i] = v;
  }
}

__global__ void fill_nan64(double* x, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count;
       i += std::size_t{gridDim.x} * blockDim.x)
    x[i] = __longlong_as_double(0x7ff8000000000000ll);
}

__global__ void pick_samples(long long* index, int count, long long entries, std::uint64_t seed) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) index[t] = static_cast<long long>(mix64(seed + t) % static_cast<std::uint64_t>(entries));
}

// Dot2 (Ogita, Rump, Oishi): error-free products and sums in double-double,
// every operation rounded on its own (an FMA contracted into x*y + hi
// would break the error-free transformations).
__global__ void exact_entries(const double* a, const double* b, int m, int k, const long long* index, int count,
                              double* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const long long i = index[t] % m, j = index[t] / m;
  double hi = 0.0, lo = 0.0;
  for (int p = 0; p < k; ++p) {
    const double x = a[i + static_cast<long long>(p) * m], y = b[p + j * k];
    const double prod = __dmul_rn(x, y);
    const double prod_err = __fma_rn(x, y, -prod);
    const double s = __dadd_rn(hi, prod);
    const double bb = __dsub_rn(s, hi);
    const double sum_err = __dadd_rn(__dsub_rn(hi, __dsub_rn(s, bb)), __dsub_rn(prod, bb));
    hi = s;
    lo = __dadd_rn(lo, __dadd_rn(sum_err, prod_err));
  }
  out[t] = __dadd_rn(hi, lo);
}

__global__ void gather(const double* c, const long long* index, int count, double* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count) out[t] = c[index[t]];
}

// stats: [0] sum (c - exact)^2, [1] sum exact^2, [2] max |c - exact|, [3] max |c - dgemm|, [4] nonfinite
__global__ void sample_stats(const double* c, const long long* index, const double* exact, const double* dgemm,
                             int count, double* stats) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const double v = c[index[t]], r = exact[t];
  if (!isfinite(v)) {
    atomicAdd(&stats[4], 1.0);
    return;
  }
  atomicAdd(&stats[0], __dmul_rn(v - r, v - r));
  atomicAdd(&stats[1], __dmul_rn(r, r));
  auto* bits = reinterpret_cast<unsigned long long*>(stats);
  atomicMax(&bits[2], static_cast<unsigned long long>(__double_as_longlong(fabs(v - r))));
  if (isfinite(dgemm[t]))
    atomicMax(&bits[3], static_cast<unsigned long long>(__double_as_longlong(fabs(v - dgemm[t]))));
}

}  // namespace

const char* dist_name(Distribution64 d) {
  return d == Distribution64::uniform ? "fp64_uniform" : d == Distribution64::normal ? "fp64_normal" : "fp64_wide";
}

DeviceProblem64::DeviceProblem64(Shape shape, Distribution64 dist, std::uint64_t seed) : shape_(shape) {
  const std::size_t na = std::size_t(shape.m) * shape.k, nb = std::size_t(shape.k) * shape.n,
                    nc = std::size_t(shape.m) * shape.n;
  const double set_bytes = 8.0 * double(na + nb);
  const int sets = std::clamp(static_cast<int>(std::ceil(150e6 / set_bytes)), 2, 32);
  for (int s = 0; s < sets; ++s) {
    double *a = nullptr, *b = nullptr;
    BENCH_CUDA(cudaMalloc(&a, na * 8));
    BENCH_CUDA(cudaMalloc(&b, nb * 8));
    fill64<<<grid, block>>>(a, na, seed + 2 * s, dist);
    fill64<<<grid, block>>>(b, nb, seed + 2 * s + 1, dist);
    BENCH_CUDA(cudaGetLastError());
    a_.push_back(a);
    b_.push_back(b);
  }
  BENCH_CUDA(cudaMalloc(&c_, nc * 8));
  samples_ = static_cast<int>(std::min<std::size_t>(sample_count, nc));
  BENCH_CUDA(cudaMalloc(&sample_index_, samples_ * sizeof(long long)));
  BENCH_CUDA(cudaMalloc(&exact_, samples_ * sizeof(double)));
  BENCH_CUDA(cudaMalloc(&dgemm_, samples_ * sizeof(double)));
  BENCH_CUDA(cudaMalloc(&stats_, 8 * sizeof(double)));
  const int blocks = (samples_ + 127) / 128;
  pick_samples<<<blocks, 128>>>(sample_index_, samples_, static_cast<long long>(nc), seed ^ 0xABCDEFull);
  exact_entries<<<blocks, 128>>>(a_[0], b_[0], shape.m, shape.k, sample_index_, samples_, exact_);
  cublasHandle_t h;
  BENCH_CUBLAS(cublasCreate(&h));
  const double one = 1, zero = 0;
  BENCH_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, shape.m, shape.n, shape.k, &one, a_[0], shape.m, b_[0], shape.k,
                           &zero, c_, shape.m));
  gather<<<blocks, 128>>>(c_, sample_index_, samples_, dgemm_);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaDeviceSynchronize());
  BENCH_CUBLAS(cublasDestroy(h));
}

DeviceProblem64::~DeviceProblem64() {
  for (double* p : a_) cudaFree(p);
  for (double* p : b_) cudaFree(p);
  cudaFree(c_);
  cudaFree(sample_index_);
  cudaFree(exact_);
  cudaFree(dgemm_);
  cudaFree(stats_);
}

void DeviceProblem64::poison_c(cudaStream_t stream) const {
  fill_nan64<<<grid, block, 0, stream>>>(c_, std::size_t(shape_.m) * shape_.n);
  BENCH_CUDA(cudaGetLastError());
}

Errors64 DeviceProblem64::errors_of_c() const {
  BENCH_CUDA(cudaMemset(stats_, 0, 8 * sizeof(double)));
  sample_stats<<<(samples_ + 127) / 128, 128>>>(c_, sample_index_, exact_, dgemm_, samples_, stats_);
  BENCH_CUDA(cudaGetLastError());
  double h[5];
  BENCH_CUDA(cudaMemcpy(h, stats_, sizeof h, cudaMemcpyDeviceToHost));
  return {std::sqrt(h[0] / h[1]), h[2], h[3], h[4], samples_};
}

}  // namespace egemm::bench
