// libegemm_fake_engine.so: an engine (engine_abi.h) that records what the interposer hands EGEMM, and calls cuBLAS as EGEMM's SGEMM hand-off does.
#include "fakes.hpp"
#include "src/cublas_interposer/engine_abi.h"

#include <cstdio>

namespace fake {
std::vector<Call>& engine_calls() {
  static std::vector<Call> calls;
  return calls;
}
int& engine_queries() {
  static int n = 0;
  return n;
}
}  // namespace fake

namespace {

int takes(int, int64_t m, int64_t n, int64_t, int64_t, const char** why) {
  ++fake::engine_queries();
  if (m >= fake::engine_minimum && n >= fake::engine_minimum) return 1;
  *why = "the fake engine's shape rule";
  return 0;
}

// Calls cublasSgemm_v2 (the global symbol, which is the interposer's) with
// its own arguments, as libegemm's SGEMM hand-off does: the interposer must
// send it to the real (fake) cuBLAS, not back here.
int gemm(int policy, char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
         const float* b, int64_t ldb, float beta, float* c, int64_t ldc, void* stream, char* why, size_t why_size) {
  fake::engine_calls().push_back(
      {"gemm", fake::all_bits(policy, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream)});
  if (m == fake::engine_failing_m) {
    std::snprintf(why, why_size, "the fake engine fails m = %d", static_cast<int>(m));
    return 1;
  }
  if (fake::engine_calls().size() > 1000) return 1;  // a recursion would not stop otherwise
  fake::Handle h;
  h.stream = static_cast<cudaStream_t>(stream);
  cublasSgemm_v2(fake::as_handle(h), ta == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, tb == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T,
                 static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), &alpha, a, static_cast<int>(lda), b,
                 static_cast<int>(ldb), &beta, c, static_cast<int>(ldc));
  return 0;
}

// FP64, recorded as "gemm64"; like the FP32 one it calls cuBLAS (cublasDgemm_v2,
// EGEMM's DGEMM hand-off) to show the interposer sends that call to cuBLAS.
int takes64(int, int64_t m, int64_t n, int64_t, int64_t batch, const char** why) {
  ++fake::engine_queries();
  if (batch == 1 && m >= fake::engine_minimum && n >= fake::engine_minimum) return 1;
  *why = "the fake engine's FP64 rule";
  return 0;
}

int gemm64(int policy, char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
           const double* b, int64_t ldb, double beta, double* c, int64_t ldc, void* stream, char*, size_t) {
  fake::engine_calls().push_back(
      {"gemm64", fake::all_bits(policy, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream)});
  if (fake::engine_calls().size() > 1000) return 1;  // a recursion would not stop otherwise
  fake::Handle h;
  h.stream = static_cast<cudaStream_t>(stream);
  cublasDgemm_v2(fake::as_handle(h), ta == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T, tb == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T,
                 static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), &alpha, a, static_cast<int>(lda), b,
                 static_cast<int>(ldb), &beta, c, static_cast<int>(ldc));
  return 0;
}

constexpr egemm_cublas_engine the_engine{EGEMM_CUBLAS_ENGINE_ABI, &takes, &gemm, &takes64, &gemm64};

}  // namespace

extern "C" __attribute__((visibility("default"))) const egemm_cublas_engine* egemm_cublas_engine_v1(void) {
  return &the_engine;
}
