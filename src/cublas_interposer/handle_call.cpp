// The handle-settings rule of handle_call.hpp: two getters on the real cuBLAS (math and pointer modes), no allocation, no lock.
#include "src/cublas_interposer/handle_call.hpp"

namespace egemm::interposer {

const char* handle_refusal(const RealCublas& real, cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                           long long m, long long n, long long k, long long lda, long long ldb, long long ldc,
                           bool fp64) {
  if (const char* why = transpose_refusal(ta, tb)) return why;
  if (const char* why = size_refusal(m, n, k, lda, ldb, ldc, ta, tb)) return why;
  if (real.get_math_mode == nullptr || real.get_pointer_mode == nullptr || real.get_stream == nullptr)
    return "cuBLAS lacks cublasGetMathMode, cublasGetPointerMode or cublasGetStream";
  cublasMath_t math{};
  if (real.get_math_mode(handle, &math) != CUBLAS_STATUS_SUCCESS) return "cublasGetMathMode failed on the handle";
  if (const char* why = fp64 ? fp64_math_mode_refusal(math) : math_mode_refusal(math)) return why;
  cublasPointerMode_t pointers{};
  if (real.get_pointer_mode(handle, &pointers) != CUBLAS_STATUS_SUCCESS)
    return "cublasGetPointerMode failed on the handle";
  return pointer_mode_refusal(pointers);
}

}  // namespace egemm::interposer
