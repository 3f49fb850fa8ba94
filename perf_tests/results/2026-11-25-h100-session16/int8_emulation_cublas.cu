// An FP32 gemm emulated with six INT8 tensor-core products, built from
// cuBLAS calls the way the paper's "cuBLAS-TC-Emulation" is built from FP16
// ones: what would an INT8 path give EmulatedFP32 on Hopper, in speed under
// the 700 W cap and in accuracy? (Session 16: wgmma on INT8 does 2.2x the
// multiply-adds per joule of FP16, so six INT8 products could cost less
// energy than three FP16 ones.)
//
// The split (one block per row of op(A) and per column of op(B), both
// k-contiguous): each row is scaled by a power of two 2^-e so that its
// largest |x| 2^-e is below 127/128, rounded to an integer N = rint(x 2^(23-e))
// (|N| < 2^23) and cut into balanced base-256 digits, N = d0 2^16 + d1 2^8 + d2
// with d1, d2 in [-128, 127] and d0 in [-127, 127]: three signed 8-bit slices,
// ~23 bits of the row's scale, every slice centred (the dropped products carry
// no bias). Six products, grouped by weight, accumulate exactly in int32
// (three per group at most: |sum| <= 3 * 2^14 * k, k <= 43690):
//   P0 = d0 d0,  P1 = d0 d1 + d1 d0,  P2 = d1 d1 + d0 d2 + d2 d0;
// C = alpha 2^(ea + eb) 2^-14 (P0 + 2^-8 P1 + 2^-16 P2) + beta C, combined in
// float64 and rounded once. Accuracy limit: per-row fixed point, an element
// far below its row's largest keeps fewer bits (the "wide" inputs show it).
//
// Timed like the suite's sustained regime: 1 s of queued calls, then the mean
// call of 1.5 s more. Every method on the same inputs in one run; errors
// against a cuBLAS float64 product.
//   nvcc -O3 -std=c++17 -arch=sm_90 int8_emulation_cublas.cu -I<repo>/src -L<build>/src -legemm -lcublas
//   int8_emulation_cublas [n=8192] [uniform|wide] [all|egemm] [k=n]
// ("egemm": cuBLAS SGEMM and EGEMM's EmulatedFP32 only, m = n and the given k;
// run 4 timed session 16's INT8 speed-experiment library that way).
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "CUDA %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); std::exit(1); } } while (0)
#define CB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { std::fprintf(stderr, "cuBLAS status %d at %s:%d\n", (int)s_, __FILE__, __LINE__); std::exit(1); } } while (0)

// One block per row of `rows` (k-contiguous, length k): the row's exponent
// and its three digit slices (slice s of row r at digits + (s rows + r) k).
__global__ void split_rows(const float* x, int k, int rows, std::int8_t* digits, int* exponent) {
  const int r = blockIdx.x;
  const float* row = x + static_cast<std::size_t>(r) * k;
  __shared__ float warp_max[32];
  float m = 0.0f;
  for (int j = threadIdx.x; j < k; j += blockDim.x) m = fmaxf(m, fabsf(row[j]));
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (threadIdx.x % 32 == 0) warp_max[threadIdx.x / 32] = m;
  __syncthreads();
  m = 0.0f;
  for (int w = 0; w < blockDim.x / 32; ++w) m = fmaxf(m, warp_max[w]);
  int e = m > 0.0f ? ilogbf(m) + 1 : 0;  // m 2^-e in [1/2, 1)
  if (ldexpf(m, -e) >= 127.0f / 128.0f) ++e;
  if (threadIdx.x == 0) exponent[r] = e;
  const std::size_t plane = static_cast<std::size_t>(rows) * k;
  std::int8_t* out = digits + static_cast<std::size_t>(r) * k;
  for (int j = threadIdx.x; j < k; j += blockDim.x) {
    const int n = __float2int_rn(ldexpf(row[j], 23 - e));  // |n| < 127 * 2^16
    const int d2 = ((n + 128) & 255) - 128;
    const int n1 = (n - d2) >> 8;
    const int d1 = ((n1 + 128) & 255) - 128;
    const int d0 = (n1 - d1) >> 8;
    out[j] = static_cast<std::int8_t>(d0);
    out[plane + j] = static_cast<std::int8_t>(d1);
    out[2 * plane + j] = static_cast<std::int8_t>(d2);
  }
}

// C (m x n, column-major) = alpha 2^(ea + eb - 14) (P0 + 2^-8 P1 + 2^-16 P2) + beta C.
__global__ void combine(const int* p0, const int* p1, const int* p2, const int* ea, const int* eb, int m, int n,
                        float alpha, float beta, float* c) {
  const std::size_t count = static_cast<std::size_t>(m) * n;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x) {
    const int row = static_cast<int>(i % m), col = static_cast<int>(i / m);
    const double sum = (static_cast<double>(p2[i]) * 0x1p-16 + static_cast<double>(p1[i]) * 0x1p-8) + p0[i];
    const double v = ldexp(sum, ea[row] + eb[col] - 14) * alpha;
    c[i] = beta == 0.0f ? static_cast<float>(v) : static_cast<float>(v + static_cast<double>(beta) * c[i]);
  }
}

struct Int8Emulation {
  int m, n, k;
  std::int8_t *a_digits, *b_digits;
  int *a_exp, *b_exp, *p[3];

  Int8Emulation(int m_, int n_, int k_) : m(m_), n(n_), k(k_) {
    CK(cudaMalloc(&a_digits, 3ull * m * k));
    CK(cudaMalloc(&b_digits, 3ull * n * k));
    CK(cudaMalloc(&a_exp, m * sizeof(int)));
    CK(cudaMalloc(&b_exp, n * sizeof(int)));
    for (int*& q : p) CK(cudaMalloc(&q, static_cast<std::size_t>(m) * n * sizeof(int)));
  }
  const std::int8_t* a(int s) const { return a_digits + static_cast<std::size_t>(s) * m * k; }
  const std::int8_t* b(int s) const { return b_digits + static_cast<std::size_t>(s) * n * k; }

  // P += A_s^T B_t in int32 (cuBLAS's INT8 layout: both operands k-contiguous).
  void product(cublasHandle_t h, int s, int t, int* out, bool accumulate) const {
    const int one = 1, keep = accumulate ? 1 : 0;
    CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a(s), CUDA_R_8I, k, b(t), CUDA_R_8I, k, &keep, out,
                    CUDA_R_32I, m, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
  }
  void products(cublasHandle_t h) const {
    product(h, 0, 0, p[0], false);
    product(h, 0, 1, p[1], false);
    product(h, 1, 0, p[1], true);
    product(h, 1, 1, p[2], false);
    product(h, 0, 2, p[2], true);
    product(h, 2, 0, p[2], true);
  }
  // op(A) = at^T (at: k x m column-major, i.e. rows of op(A) k-contiguous), B: k x n column-major.
  void gemm(cublasHandle_t h, float alpha, const float* at, const float* b_, float beta, float* c) const {
    split_rows<<<m, 256>>>(at, k, m, a_digits, a_exp);
    split_rows<<<n, 256>>>(b_, k, n, b_digits, b_exp);
    CK(cudaGetLastError());
    products(h);
    combine<<<1024, 256>>>(p[0], p[1], p[2], a_exp, b_exp, m, n, alpha, beta, c);
    CK(cudaGetLastError());
  }
};

__global__ void to_half(const float* x, std::size_t count, __half* out) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    out[i] = __float2half_rn(x[i]);
}

double rel_frobenius(const std::vector<float>& c, const std::vector<double>& ref) {
  double e2 = 0.0, r2 = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    e2 += (c[i] - ref[i]) * (c[i] - ref[i]);
    r2 += ref[i] * ref[i];
  }
  return std::sqrt(e2 / r2);
}

// Mean time of a call in a sustained stream: 1 s of calls first, then 1.5 s timed.
double sustained_ms(const std::function<void()>& call) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto run = [&](double seconds) {
    int calls = 0;
    float ms = 0.0f;
    CK(cudaEventRecord(e0));
    do {
      for (int i = 0; i < 4; ++i, ++calls) call();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&ms, e0, e1));
    } while (ms < seconds * 1e3);
    return static_cast<double>(ms) / calls;
  };
  run(1.0);
  const double per_call = run(1.5);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return per_call;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const bool wide = argc > 2 && std::strcmp(argv[2], "wide") == 0;
  const bool egemm_only = argc > 3 && std::strcmp(argv[3], "egemm") == 0;
  const int m = n, k = argc > 4 ? std::atoi(argv[4]) : n;
  const std::size_t count = static_cast<std::size_t>(n) * n, a_count = static_cast<std::size_t>(k) * m;
  std::vector<float> a(a_count), b(a_count);  // a: op(A)^T (k x m), b: B (k x n), both column-major
  std::mt19937_64 gen(20261125);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> ex(-16, 16);
  auto draw = [&] { return wide ? std::copysign(std::ldexp(mant(gen), ex(gen)), u(gen)) : u(gen); };
  for (float& x : a) x = draw();
  for (float& x : b) x = draw();
  std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());

  float *da, *db, *dc;
  double *da64, *db64, *dref;
  CK(cudaMalloc(&da, a_count * 4)); CK(cudaMalloc(&db, a_count * 4)); CK(cudaMalloc(&dc, count * 4));
  CK(cudaMalloc(&da64, a_count * 8)); CK(cudaMalloc(&db64, a_count * 8)); CK(cudaMalloc(&dref, count * 8));
  CK(cudaMemcpy(da, a.data(), a_count * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db, b.data(), a_count * 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(da64, a64.data(), a_count * 8, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(db64, b64.data(), a_count * 8, cudaMemcpyHostToDevice));
  cublasHandle_t h;
  CB(cublasCreate(&h));
  const double one = 1.0, zero = 0.0;
  CB(cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, da64, k, db64, k, &zero, dref, m));
  std::vector<double> ref(count);
  CK(cudaMemcpy(ref.data(), dref, count * 8, cudaMemcpyDeviceToHost));
  CK(cudaFree(da64)); CK(cudaFree(db64)); CK(cudaFree(dref));

  const Int8Emulation int8(m, n, egemm_only ? 32 : k);  // unused with "egemm"
  // The FP16 counterpart: three cuBLAS FP16 gemms (FP32 accumulate) on pieces
  // of the same size, the products EmulatedFP32 issues, as vendor calls.
  __half *ha, *hb;
  float* hc;
  CK(cudaMalloc(&ha, a_count * 2)); CK(cudaMalloc(&hb, a_count * 2)); CK(cudaMalloc(&hc, count * 4));
  to_half<<<1024, 256>>>(da, a_count, ha);
  to_half<<<1024, 256>>>(db, a_count, hb);
  CK(cudaGetLastError());
  auto three_fp16 = [&] {
    const float one_f = 1.0f;
    for (int t = 0; t < 3; ++t)
      CB(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one_f, ha, CUDA_R_16F, k, hb, CUDA_R_16F, k, &one_f, hc,
                      CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  };
  struct Method { const char* name; std::function<void()> call; bool writes_c; };
  const float onef = 1.0f, zerof = 0.0f;
  const Method methods[] = {
      {"cuBLAS SGEMM", [&] { CB(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &onef, da, k, db, k, &zerof, dc, m)); }, true},
      {"EGEMM EmulatedFP32", [&] { egemm::gemm(egemm::EmulatedFP32{}, 'T', 'N', m, n, k, 1.0f, da, k, db, k, 0.0f, dc, m, nullptr); }, true},
      {"INT8 x6 emulation (split + 6 cuBLAS INT8 gemms + combine)", [&] { int8.gemm(h, 1.0f, da, db, 0.0f, dc); }, true},
      {"  its 6 cuBLAS INT8 gemms alone", [&] { int8.products(h); }, false},
      {"3 cuBLAS FP16 gemms alone (EmulatedFP32's products as vendor calls)", three_fp16, false},
  };
  std::printf("%s, %d x %d x %d, %s inputs\n\n", [] { static cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0)); return p.name; }(),
              m, n, k, wide ? "wide (2^-16..2^16)" : "uniform [-1, 1]");
  std::printf("| method | ms a call (sustained) | TFLOP/s | x SGEMM | rel. Frobenius error |\n|---|---:|---:|---:|---:|\n");
  double sgemm_ms = 0.0;
  for (const Method& mth : methods) {
    if (egemm_only && &mth - methods >= 2) break;
    std::string error = "";
    if (mth.writes_c) {
      CK(cudaMemset(dc, 0xFF, count * 4));  // NaN: a method that skips an entry shows
      mth.call();
      CK(cudaDeviceSynchronize());
      std::vector<float> c(count);
      CK(cudaMemcpy(c.data(), dc, count * 4, cudaMemcpyDeviceToHost));
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3e", rel_frobenius(c, ref));
      error = buf;
    }
    const double ms = sustained_ms(mth.call);
    if (sgemm_ms == 0.0) sgemm_ms = ms;
    std::printf("| %s | %.3f | %.1f | %.2fx | %s |\n", mth.name, ms, 2.0 * m * n * k / (ms * 1e-3) / 1e12, sgemm_ms / ms,
                error.c_str());
    std::fflush(stdout);
  }
  return 0;
}
