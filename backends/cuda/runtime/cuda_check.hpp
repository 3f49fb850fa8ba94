// Turns CUDA runtime and cuBLAS failures into egemm::device_error with the
// call, the error string and the place.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

#include "egemm/errors.hpp"

namespace egemm::cuda {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* call, const char* file, int line) {
  throw device_error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " + call +
                     " at " + file + ":" + std::to_string(line));
}
[[noreturn]] inline void throw_cublas_error(cublasStatus_t s, const char* call, const char* file, int line) {
  throw device_error(std::string("cuBLAS error ") + cublasGetStatusName(s) + " in " + call + " at " + file + ":" +
                     std::to_string(line));
}

}  // namespace egemm::cuda

#define EGEMM_CUDA_CHECK(call)                                                                  \
  do {                                                                                          \
    const cudaError_t egemm_e_ = (call);                                                        \
    if (egemm_e_ != cudaSuccess) ::egemm::cuda::throw_cuda_error(egemm_e_, #call, __FILE__, __LINE__); \
  } while (0)

#define EGEMM_CUBLAS_CHECK(call)                                                                       \
  do {                                                                                                 \
    const cublasStatus_t egemm_s_ = (call);                                                            \
    if (egemm_s_ != CUBLAS_STATUS_SUCCESS) ::egemm::cuda::throw_cublas_error(egemm_s_, #call, __FILE__, __LINE__); \
  } while (0)
