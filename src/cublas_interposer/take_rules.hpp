// Which cuBLAS arguments EGEMM may take: each rule returns null where EGEMM may, else why the call passes through.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

namespace egemm::interposer {

// The handle's math mode: only CUBLAS_DEFAULT_MATH (with or without
// CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION, which concerns FP16
// products) asks for FP32. TF32 and the BF16x9 emulation were chosen by the
// user; pedantic math asks for cuBLAS's own FP32 arithmetic.
const char* math_mode_refusal(cublasMath_t mode);

// The same for FP64 calls: TF32, BF16x9 and tensor-op math concern FP32 and
// FP16 products, not DGEMM (PyTorch sets TF32 math with allow_tf32 and still
// asks for FP64 products); pedantic math and cuBLAS's own FP64 emulation pass through.
const char* fp64_math_mode_refusal(cublasMath_t mode);

// Host alpha and beta only: EGEMM takes them by value, and reading device
// ones would wait for the stream (the call would stop being asynchronous and
// would break a graph capture). Device pointer mode passes through.
const char* pointer_mode_refusal(cublasPointerMode_t mode);

// CUBLAS_COMPUTE_32F only: _FAST_* and _EMULATED_* were chosen by the user,
// _PEDANTIC asks for cuBLAS's own arithmetic, the others are not FP32.
const char* compute_type_refusal(cublasComputeType_t type);

// A, B and C all FP32 (CUDA_R_32F).
const char* data_types_refusal(cudaDataType a, cudaDataType b, cudaDataType c);

// A, B and C all FP64 (CUDA_R_64F): an Ex call that runs the FP64 path.
bool all_fp64(cudaDataType a, cudaDataType b, cudaDataType c);

// FP64 Ex calls: CUBLAS_COMPUTE_64F only (_PEDANTIC asks for cuBLAS's own
// arithmetic, the emulated compute types were chosen by the caller).
const char* fp64_compute_type_refusal(cublasComputeType_t type);

// N and T (and C, the same as T on real data) are EGEMM's transposes; the
// conjugate-only cuBLAS operations are not.
const char* transpose_refusal(cublasOperation_t a, cublasOperation_t b);
char transpose_char(cublasOperation_t op);  // 'N' or 'T'

// cuBLAS's own argument errors (negative sizes, short leading dimensions,
// a batch below 0) are left for cuBLAS to report, with its status.
const char* size_refusal(long long m, long long n, long long k, long long lda, long long ldb, long long ldc,
                         cublasOperation_t ta, cublasOperation_t tb);


}  // namespace egemm::interposer
