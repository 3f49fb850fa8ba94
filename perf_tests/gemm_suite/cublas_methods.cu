#include <cuda_fp16.h>

#include <functional>

#include "check.hpp"
#include "methods.hpp"

namespace egemm::bench {
namespace {

constexpr int grid = 1024, block = 256;

enum class SplitKind { round, truncate, round_scaled };  // as in ../shared/anchors/anchor_bench.cu

__global__ void split_kernel(const float* x, __half* hi, __half* lo, std::size_t count, SplitKind kind) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
    const float v = x[i];
    const __half h = kind == SplitKind::truncate ? __float2half_rz(v) : __float2half_rn(v);
    float r = v - __half2float(h);
    if (kind == SplitKind::round_scaled) r *= 2048.0f;
    hi[i] = h;
    lo[i] = __float2half_rn(r);
  }
}

__global__ void to_half_kernel(const float* x, __half* h, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x)
    h[i] = __float2half_rn(x[i]);
}

__global__ void combine_kernel(float* d, const float* main, const float* correction, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x)
    d[i] = main[i] + correction[i] * (1.0f / 2048.0f);
}

// Device scratch a cuBLAS-built method needs: FP16 pieces of A and B, FP32 partials.
struct Scratch {
  __half *a_hi = nullptr, *a_lo = nullptr, *b_hi = nullptr, *b_lo = nullptr;
  float *d1 = nullptr, *d2 = nullptr;
  explicit Scratch(Shape s) {
    const std::size_t na = std::size_t(s.m) * s.k, nb = std::size_t(s.k) * s.n, nc = std::size_t(s.m) * s.n;
    BENCH_CUDA(cudaMalloc(&a_hi, na * 2));
    BENCH_CUDA(cudaMalloc(&a_lo, na * 2));
    BENCH_CUDA(cudaMalloc(&b_hi, nb * 2));
    BENCH_CUDA(cudaMalloc(&b_lo, nb * 2));
    BENCH_CUDA(cudaMalloc(&d1, nc * 4));
    BENCH_CUDA(cudaMalloc(&d2, nc * 4));
  }
  ~Scratch() {
    for (void* p : {static_cast<void*>(a_hi), static_cast<void*>(a_lo), static_cast<void*>(b_hi),
                    static_cast<void*>(b_lo), static_cast<void*>(d1), static_cast<void*>(d2)})
      cudaFree(p);
  }
};

class CublasMethod final : public Method {
 public:
  using Body = std::function<void(const DeviceProblem&, int, cudaStream_t)>;
  CublasMethod(std::string name, Body body) : name_(std::move(name)), body_(std::move(body)) {}
  std::string name() const override { return name_; }
  void run(const DeviceProblem& p, int set, cudaStream_t stream) override { body_(p, set, stream); }

 private:
  std::string name_;
  Body body_;
};

}  // namespace

std::vector<std::unique_ptr<Method>> cublas_methods(const DeviceProblem& problem, cublasHandle_t h) {
  const Shape s = problem.shape();
  const std::size_t na = std::size_t(s.m) * s.k, nb = std::size_t(s.k) * s.n, nc = std::size_t(s.m) * s.n;
  auto scratch = std::make_shared<Scratch>(s);
  static const float one = 1.0f, zero = 0.0f;

  // C (+)= op(A) op(B) with cublasGemmEx on the method's inputs.
  auto gemm_ex = [h, s](const void* a, cudaDataType ta, const void* b, cudaDataType tb, const float* beta, float* c,
                        cublasComputeType_t compute) {
    BENCH_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, s.m, s.n, s.k, &one, a, ta, s.m, b, tb, s.k, beta, c,
                              CUDA_R_32F, s.m, compute, CUBLAS_GEMM_DEFAULT));
  };
  auto split = [scratch, na, nb](const DeviceProblem& p, int set, cudaStream_t st, SplitKind kind) {
    split_kernel<<<grid, block, 0, st>>>(p.a(set), scratch->a_hi, scratch->a_lo, na, kind);
    split_kernel<<<grid, block, 0, st>>>(p.b(set), scratch->b_hi, scratch->b_lo, nb, kind);
    BENCH_CUDA(cudaGetLastError());
  };
  // Four products lo*lo, lo*hi, hi*lo, hi*hi accumulated through beta = 1 (paper Alg. 1 on cuBLAS).
  auto four_calls = [scratch, gemm_ex](float* c) {
    const auto H = CUDA_R_16F;
    gemm_ex(scratch->a_lo, H, scratch->b_lo, H, &zero, c, CUBLAS_COMPUTE_32F);
    gemm_ex(scratch->a_lo, H, scratch->b_hi, H, &one, c, CUBLAS_COMPUTE_32F);
    gemm_ex(scratch->a_hi, H, scratch->b_lo, H, &one, c, CUBLAS_COMPUTE_32F);
    gemm_ex(scratch->a_hi, H, scratch->b_hi, H, &one, c, CUBLAS_COMPUTE_32F);
  };

  std::vector<std::unique_ptr<Method>> out;
  auto add = [&](const char* name, CublasMethod::Body body) {
    out.push_back(std::make_unique<CublasMethod>(name, [h, body](const DeviceProblem& p, int set, cudaStream_t st) {
      BENCH_CUBLAS(cublasSetStream(h, st));
      body(p, set, st);
    }));
  };
  add("cublas_sgemm", [h, s](const DeviceProblem& p, int set, cudaStream_t) {
    BENCH_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s.m, s.n, s.k, &one, p.a(set), s.m, p.b(set), s.k, &zero, p.c(), s.m));
  });
  add("cublas_tf32", [gemm_ex](const DeviceProblem& p, int set, cudaStream_t) {
    gemm_ex(p.a(set), CUDA_R_32F, p.b(set), CUDA_R_32F, &zero, p.c(), CUBLAS_COMPUTE_32F_FAST_TF32);
  });
  add("cublas_bf16x9", [h, gemm_ex](const DeviceProblem& p, int set, cudaStream_t) {
    BENCH_CUBLAS(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER));
    gemm_ex(p.a(set), CUDA_R_32F, p.b(set), CUDA_R_32F, &zero, p.c(), CUBLAS_COMPUTE_32F_EMULATED_16BFX9);
    BENCH_CUBLAS(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_DEFAULT));
  });
  add("cublas_half", [scratch, gemm_ex, na, nb](const DeviceProblem& p, int set, cudaStream_t st) {
    to_half_kernel<<<grid, block, 0, st>>>(p.a(set), scratch->a_hi, na);
    to_half_kernel<<<grid, block, 0, st>>>(p.b(set), scratch->b_hi, nb);
    BENCH_CUDA(cudaGetLastError());
    gemm_ex(scratch->a_hi, CUDA_R_16F, scratch->b_hi, CUDA_R_16F, &zero, p.c(), CUBLAS_COMPUTE_32F);
  });
  add("cublas_tc_emulation", [split, four_calls](const DeviceProblem& p, int set, cudaStream_t st) {
    split(p, set, st, SplitKind::round);
    four_calls(p.c());
  });
  add("cublas_markidis", [split, four_calls](const DeviceProblem& p, int set, cudaStream_t st) {
    split(p, set, st, SplitKind::truncate);
    four_calls(p.c());
  });
  add("cublas_ootomo3", [split, scratch, gemm_ex, nc](const DeviceProblem& p, int set, cudaStream_t st) {
    split(p, set, st, SplitKind::round_scaled);
    const auto H = CUDA_R_16F;
    gemm_ex(scratch->a_hi, H, scratch->b_hi, H, &zero, scratch->d1, CUBLAS_COMPUTE_32F);
    gemm_ex(scratch->a_hi, H, scratch->b_lo, H, &zero, scratch->d2, CUBLAS_COMPUTE_32F);
    gemm_ex(scratch->a_lo, H, scratch->b_hi, H, &one, scratch->d2, CUBLAS_COMPUTE_32F);
    combine_kernel<<<grid, block, 0, st>>>(p.c(), scratch->d1, scratch->d2, nc);
    BENCH_CUDA(cudaGetLastError());
  });
  return out;
}

}  // namespace egemm::bench
