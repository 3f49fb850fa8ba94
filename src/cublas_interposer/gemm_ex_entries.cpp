// cublasGemmEx and cublasGemmStridedBatchedEx (and _64): taken for FP32 A, B, C with CUBLAS_COMPUTE_32F, and for FP64 ones with CUBLAS_COMPUTE_64F.
#include "src/cublas_interposer/handle_call.hpp"

using namespace egemm::interposer;

namespace {

// FP32 data, then the compute type: null where EGEMM may take the call (any
// algo: it names a cuBLAS kernel choice, which EGEMM's own replaces).
const char* ex_refusal(cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t compute) {
  if (const char* why = data_types_refusal(a, b, c)) return why;
  return compute_type_refusal(compute);
}

// Items from `i` on, in bytes, of `element` bytes each.
const void* skip(const void* p, long long i, long long stride, long long element) {
  return static_cast<const char*>(p) + i * stride * element;
}
void* skip(void* p, long long i, long long stride, long long element) {
  return static_cast<char*>(p) + i * stride * element;
}

// FP64 data (all three CUDA_R_64F) runs the FP64 path, everything else the FP32 one.
template <class Forward>
cublasStatus_t ex_call(const HandleCall& c, cudaDataType a, cudaDataType b, cudaDataType d, cublasComputeType_t compute,
                       Forward&& forward) {
  if (all_fp64(a, b, d)) return handle_gemm_call<double>(c, fp64_compute_type_refusal(compute), forward);
  return handle_gemm_call<float>(c, ex_refusal(a, b, d, compute), forward);
}

long long element_bytes(cudaDataType a, cudaDataType b, cudaDataType c) {
  return all_fp64(a, b, c) ? static_cast<long long>(sizeof(double)) : static_cast<long long>(sizeof(float));
}

}  // namespace

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                                                    int m, int n, int k, const void* alpha, const void* A,
                                                    cudaDataType Atype, int lda, const void* B, cudaDataType Btype,
                                                    int ldb, const void* beta, void* C, cudaDataType Ctype, int ldc,
                                                    cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  const auto f = real_cublas().gemm_ex;
  if (f == nullptr) return missing_real_function("cublasGemmEx");
  return ex_call({"cublasGemmEx", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1}, Atype,
                 Btype, Ctype, compute, [&](long long) {
                            return f(handle, ta, tb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                                     compute, algo);
                          });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasGemmEx_64(cublasHandle_t handle, cublasOperation_t ta,
                                                       cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                                       const void* alpha, const void* A, cudaDataType Atype,
                                                       int64_t lda, const void* B, cudaDataType Btype, int64_t ldb,
                                                       const void* beta, void* C, cudaDataType Ctype, int64_t ldc,
                                                       cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  const auto f = real_cublas().gemm_ex_64;
  if (f == nullptr) return missing_real_function("cublasGemmEx_64");
  return ex_call({"cublasGemmEx_64", handle, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1}, Atype,
                 Btype, Ctype, compute, [&](long long) {
                            return f(handle, ta, tb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                                     compute, algo);
                          });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const void* alpha,
    const void* A, cudaDataType Atype, int lda, long long sA, const void* B, cudaDataType Btype, int ldb, long long sB,
    const void* beta, void* C, cudaDataType Ctype, int ldc, long long sC, int batch, cublasComputeType_t compute,
    cublasGemmAlgo_t algo) {
  const auto f = real_cublas().gemm_strided_batched_ex;
  if (f == nullptr) return missing_real_function("cublasGemmStridedBatchedEx");
  const long long e = element_bytes(Atype, Btype, Ctype);
  return ex_call(
      {"cublasGemmStridedBatchedEx", handle, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch}, Atype,
      Btype, Ctype, compute, [&](long long i) {
        return f(handle, ta, tb, m, n, k, alpha, skip(A, i, sA, e), Atype, lda, sA, skip(B, i, sB, e), Btype, ldb, sB, beta,
                 skip(C, i, sC, e), Ctype, ldc, sC, static_cast<int>(batch - i), compute, algo);
      });
}

EGEMM_INTERPOSER_EXPORT cublasStatus_t cublasGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
    const void* alpha, const void* A, cudaDataType Atype, int64_t lda, long long sA, const void* B, cudaDataType Btype,
    int64_t ldb, long long sB, const void* beta, void* C, cudaDataType Ctype, int64_t ldc, long long sC, int64_t batch,
    cublasComputeType_t compute, cublasGemmAlgo_t algo) {
  const auto f = real_cublas().gemm_strided_batched_ex_64;
  if (f == nullptr) return missing_real_function("cublasGemmStridedBatchedEx_64");
  const long long e = element_bytes(Atype, Btype, Ctype);
  return ex_call(
      {"cublasGemmStridedBatchedEx_64", handle, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC, batch}, Atype,
      Btype, Ctype, compute, [&](long long i) {
        return f(handle, ta, tb, m, n, k, alpha, skip(A, i, sA, e), Atype, lda, sA, skip(B, i, sB, e), Btype, ldb, sB, beta,
                 skip(C, i, sC, e), Ctype, ldc, sC, batch - i, compute, algo);
      });
}
