// NativeFP32 on the GPU: cuBLAS SGEMM on the caller's stream (through a cached
// cuBLASLt plan where one serves, sgemm_plans.hpp).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// cuBLAS's name for a transpose.
inline cublasOperation_t to_cublas(Op op) { return op == Op::none ? CUBLAS_OP_N : CUBLAS_OP_T; }

// This thread's cuBLAS handle for the current device, created on first use.
cublasHandle_t cublas_handle();

void native_sgemm(const GemmArgs& g, cudaStream_t stream);

}  // namespace egemm::cuda
