// The real cuBLAS and cuBLASLt entry points behind the interposer, resolved once per process.
#pragma once

#include <cublasLt.h>
#include <cublas_v2.h>

namespace egemm::interposer {

// cublasGemmEx and cublasGemmStridedBatchedEx have inline C++ overloads (a
// cudaDataType compute type) beside the exported functions: these are the exported ones.
using GemmExFunction = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                          const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                          const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using GemmStridedBatchedExFunction = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                        int, const void*, const void*, cudaDataType, int, long long,
                                                        const void*, cudaDataType, int, long long, const void*, void*,
                                                        cudaDataType, int, long long, int, cublasComputeType_t,
                                                        cublasGemmAlgo_t);

// The next definition of each symbol after the interposer's own: the
// application's libcublas / libcublasLt (or, in the host tests, the fake one).
struct RealCublas {
  decltype(&::cublasSgemm_v2) sgemm;
  decltype(&::cublasSgemm_v2_64) sgemm_64;
  decltype(&::cublasSgemmStridedBatched) sgemm_strided_batched;
  decltype(&::cublasSgemmStridedBatched_64) sgemm_strided_batched_64;
  GemmExFunction gemm_ex;
  decltype(&::cublasGemmEx_64) gemm_ex_64;
  GemmStridedBatchedExFunction gemm_strided_batched_ex;
  decltype(&::cublasGemmStridedBatchedEx_64) gemm_strided_batched_ex_64;
  decltype(&::cublasDgemm_v2) dgemm;
  decltype(&::cublasDgemm_v2_64) dgemm_64;
  decltype(&::cublasGetMathMode) get_math_mode;
  decltype(&::cublasGetPointerMode_v2) get_pointer_mode;
  decltype(&::cublasGetStream_v2) get_stream;
  decltype(&::cublasLtMatmul) lt_matmul;
  decltype(&::cublasLtMatmulDescGetAttribute) lt_desc_get;
  decltype(&::cublasLtMatrixLayoutGetAttribute) lt_layout_get;
};

// Resolved at the first call (dlsym(RTLD_NEXT); where the application loaded
// cuBLAS with RTLD_LOCAL, out of its global scope, the loaded copy is found
// by soname with RTLD_NOLOAD). A symbol found nowhere is null, and the entry
// point that needs it answers CUBLAS_STATUS_NOT_INITIALIZED after saying so
// on stderr.
const RealCublas& real_cublas();

// The status an entry point returns when its real function is missing.
cublasStatus_t missing_real_function(const char* name);

}  // namespace egemm::interposer
