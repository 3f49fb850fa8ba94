// cublasSgemm_v2 and cublasSgemmStridedBatched (and their _64 forms): FP32 by their type, taken under the handle's rules.
//
// The exported cublasSgemm is cuBLAS's legacy API (no handle, another
// signature), not an alias of cublasSgemm_v2: it is not interposed and
// reaches cuBLAS unchanged.
#include "src/cublas_interposer/handle_call.hpp"

using namespace egemm::interposer;

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasSgemm_v2(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                                                      int m, int n, int k, const float* alpha, const float* A, int lda,
                                                      const float* B, int ldb, const float* beta, float* C, int ldc) {
  const auto f = real_cublas().sgemm;
  if (f == nullptr) return missing_real_function("cublasSgemm_v2");
  return handle_gemm_call<float>({"cublasSgemm_v2", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1},
                          nullptr, [&](long long) { return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasSgemm_v2_64(cublasHandle_t handle, cublasOperation_t ta,
                                                         cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                                         const float* alpha, const float* A, int64_t lda,
                                                         const float* B, int64_t ldb, const float* beta, float* C,
                                                         int64_t ldc) {
  const auto f = real_cublas().sgemm_64;
  if (f == nullptr) return missing_real_function("cublasSgemm_v2_64");
  return handle_gemm_call<float>({"cublasSgemm_v2_64", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1},
                          nullptr, [&](long long) { return f(handle, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc); });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t ta,
                                                                 cublasOperation_t tb, int m, int n, int k,
                                                                 const float* alpha, const float* A, int lda,
                                                                 long long sA, const float* B, int ldb, long long sB,
                                                                 const float* beta, float* C, int ldc, long long sC,
                                                                 int batch) {
  const auto f = real_cublas().sgemm_strided_batched;
  if (f == nullptr) return missing_real_function("cublasSgemmStridedBatched");
  return handle_gemm_call<float>(
      {"cublasSgemmStridedBatched", handle, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch},
      nullptr, [&](long long i) {
        return f(handle, ta, tb, m, n, k, alpha, A + i * sA, lda, sA, B + i * sB, ldb, sB, beta, C + i * sC, ldc, sC,
                 static_cast<int>(batch - i));
      });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasSgemmStridedBatched_64(cublasHandle_t handle, cublasOperation_t ta,
                                                                    cublasOperation_t tb, int64_t m, int64_t n,
                                                                    int64_t k, const float* alpha, const float* A,
                                                                    int64_t lda, long long sA, const float* B,
                                                                    int64_t ldb, long long sB, const float* beta,
                                                                    float* C, int64_t ldc, long long sC,
                                                                    int64_t batch) {
  const auto f = real_cublas().sgemm_strided_batched_64;
  if (f == nullptr) return missing_real_function("cublasSgemmStridedBatched_64");
  return handle_gemm_call<float>(
      {"cublasSgemmStridedBatched_64", handle, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch},
      nullptr, [&](long long i) {
        return f(handle, ta, tb, m, n, k, alpha, A + i * sA, lda, sA, B + i * sB, ldb, sB, beta, C + i * sC, ldc, sC,
                 batch - i);
      });
}
