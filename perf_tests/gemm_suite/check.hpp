// Fail-fast checks for the benchmark programs: a benchmark with a failed CUDA
// or cuBLAS call has no number worth printing.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_CUDA(call)                                                                                   \
  do {                                                                                                     \
    const cudaError_t e_ = (call);                                                                         \
    if (e_ != cudaSuccess) {                                                                               \
      std::fprintf(stderr, "CUDA error %s in %s at %s:%d\n", cudaGetErrorString(e_), #call, __FILE__, __LINE__); \
      std::exit(1);                                                                                        \
    }                                                                                                      \
  } while (0)

#define BENCH_CUBLAS(call)                                                                                      \
  do {                                                                                                          \
    const cublasStatus_t s_ = (call);                                                                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                          \
      std::fprintf(stderr, "cuBLAS error %s in %s at %s:%d\n", cublasGetStatusName(s_), #call, __FILE__, __LINE__); \
      std::exit(1);                                                                                             \
    }                                                                                                           \
  } while (0)
