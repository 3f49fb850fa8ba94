// cublasDgemm_v2 (and _64): passed through and logged until an FP64 tag exists.
//
// Plugging the FP64 tag in: give the engine an FP64 gemm, make fp64_refusal()
// (take_rules.cpp) return null for it, and run an Fp64Problem here the way
// handle_fp32_call runs an Fp32Problem; cublasGemmEx's FP64 branch already
// reaches fp64_refusal() through data_types_refusal().
#include "src/cublas_interposer/handle_call.hpp"

using namespace egemm::interposer;

namespace {

void log_fp64(const char* entry, cublasOperation_t ta, cublasOperation_t tb, long long m, long long n, long long k) {
  if (nested_call()) return;
  const char* why = policy_refusal();
  log_passed(entry, transpose_char(ta), transpose_char(tb), m, n, k, 1, why != nullptr ? why : fp64_refusal());
}

}  // namespace

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                                                      int m, int n, int k, const double* alpha, const double* A,
                                                      int lda, const double* B, int ldb, const double* beta, double* C,
                                                      int ldc) {
  const auto f = real_cublas().dgemm;
  if (f == nullptr) return missing_real_function("cublasDgemm_v2");
  log_fp64("cublasDgemm_v2", ta, tb, m, n, k);
  Inside inside;
  return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasDgemm_v2_64(cublasHandle_t handle, cublasOperation_t ta,
                                                         cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                                         const double* alpha, const double* A, int64_t lda,
                                                         const double* B, int64_t ldb, const double* beta, double* C,
                                                         int64_t ldc) {
  const auto f = real_cublas().dgemm_64;
  if (f == nullptr) return missing_real_function("cublasDgemm_v2_64");
  log_fp64("cublasDgemm_v2_64", ta, tb, m, n, k);
  Inside inside;
  return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
