// cublasDgemm_v2 (and _64): FP64 by their type, taken under the handle's rules when EGEMM_CUBLAS_FP64_POLICY names an FP64 tag.
#include "src/cublas_interposer/handle_call.hpp"

using namespace egemm::interposer;

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                                                      int m, int n, int k, const double* alpha, const double* A,
                                                      int lda, const double* B, int ldb, const double* beta, double* C,
                                                      int ldc) {
  const auto f = real_cublas().dgemm;
  if (f == nullptr) return missing_real_function("cublasDgemm_v2");
  return handle_gemm_call<double>(
      {"cublasDgemm_v2", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1}, nullptr,
      [&](long long) { return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasDgemm_v2_64(cublasHandle_t handle, cublasOperation_t ta,
                                                         cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                                         const double* alpha, const double* A, int64_t lda,
                                                         const double* B, int64_t ldb, const double* beta, double* C,
                                                         int64_t ldc) {
  const auto f = real_cublas().dgemm_64;
  if (f == nullptr) return missing_real_function("cublasDgemm_v2_64");
  return handle_gemm_call<double>(
      {"cublasDgemm_v2_64", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1}, nullptr,
      [&](long long) { return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); });
}
