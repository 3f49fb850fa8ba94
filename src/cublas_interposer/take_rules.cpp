// The argument rules of take_rules.hpp.
#include "src/cublas_interposer/take_rules.hpp"

namespace egemm::interposer {

const char* math_mode_refusal(cublasMath_t mode) {
  switch (static_cast<int>(mode) & ~static_cast<int>(CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)) {
    case CUBLAS_DEFAULT_MATH: return nullptr;
    case CUBLAS_TF32_TENSOR_OP_MATH: return "the handle's math mode is TF32";
    case CUBLAS_PEDANTIC_MATH: return "the handle's math mode is pedantic";
    case CUBLAS_TENSOR_OP_MATH: return "the handle's math mode allows reduced precision (CUBLAS_TENSOR_OP_MATH)";
    default: return "the handle's math mode is a reduced-precision or emulated one the user chose";
  }
}

const char* fp64_math_mode_refusal(cublasMath_t mode) {
  switch (static_cast<int>(mode) & ~static_cast<int>(CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)) {
    case CUBLAS_DEFAULT_MATH:
    case CUBLAS_TF32_TENSOR_OP_MATH:  // these concern FP32 and FP16 products only
    case CUBLAS_TENSOR_OP_MATH:
    case CUBLAS_FP32_EMULATED_BF16X9_MATH: return nullptr;
    case CUBLAS_PEDANTIC_MATH: return "the handle's math mode is pedantic";
#if CUBLAS_VER_MAJOR >= 13
    case CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH: return "the handle's math mode is cuBLAS's FP64 emulation";
#endif
    default: return "the handle's math mode is one the interposer does not know for FP64";
  }
}

const char* pointer_mode_refusal(cublasPointerMode_t mode) {
  return mode == CUBLAS_POINTER_MODE_HOST ? nullptr : "alpha and beta are device pointers";
}

const char* compute_type_refusal(cublasComputeType_t type) {
  switch (type) {
    case CUBLAS_COMPUTE_32F: return nullptr;
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32: return "a _FAST_ compute type (reduced precision chosen by the caller)";
    case CUBLAS_COMPUTE_32F_PEDANTIC: return "CUBLAS_COMPUTE_32F_PEDANTIC";
    default: return "not CUBLAS_COMPUTE_32F";
  }
}

const char* data_types_refusal(cudaDataType a, cudaDataType b, cudaDataType c) {
  if (a == CUDA_R_32F && b == CUDA_R_32F && c == CUDA_R_32F) return nullptr;
  return "the data types are not all FP32";
}

const char* transpose_refusal(cublasOperation_t a, cublasOperation_t b) {
  const auto real = [](cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; };
  return real(a) && real(b) ? nullptr : "a transpose other than N, T or C";
}

char transpose_char(cublasOperation_t op) { return op == CUBLAS_OP_N ? 'N' : 'T'; }

const char* size_refusal(long long m, long long n, long long k, long long lda, long long ldb, long long ldc,
                         cublasOperation_t ta, cublasOperation_t tb) {
  const auto at_least = [](long long ld, long long rows) { return ld >= (rows > 1 ? rows : 1); };
  if (m < 0 || n < 0 || k < 0) return "a negative size (cuBLAS reports it)";
  if (!at_least(lda, ta == CUBLAS_OP_N ? m : k) || !at_least(ldb, tb == CUBLAS_OP_N ? k : n) || !at_least(ldc, m))
    return "a leading dimension too small (cuBLAS reports it)";
  if (m == 0 || n == 0) return "an empty C";
  return nullptr;
}

bool all_fp64(cudaDataType a, cudaDataType b, cudaDataType c) {
  return a == CUDA_R_64F && b == CUDA_R_64F && c == CUDA_R_64F;
}

const char* fp64_compute_type_refusal(cublasComputeType_t type) {
  switch (type) {
    case CUBLAS_COMPUTE_64F: return nullptr;
    case CUBLAS_COMPUTE_64F_PEDANTIC: return "CUBLAS_COMPUTE_64F_PEDANTIC";
    default: return "not CUBLAS_COMPUTE_64F (an emulated or other compute type the caller chose)";
  }
}

}  // namespace egemm::interposer
