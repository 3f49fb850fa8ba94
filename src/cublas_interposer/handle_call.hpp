// The path every handle-based FP32 and FP64 entry point shares: refuse or take, then forward what is not taken.
#pragma once

#include <cublas_v2.h>

#include <type_traits>

#include "src/cublas_interposer/call_log.hpp"
#include "src/cublas_interposer/gemm_problem.hpp"
#include "src/cublas_interposer/policy_setting.hpp"
#include "src/cublas_interposer/real_cublas.hpp"
#include "src/cublas_interposer/reentrancy_guard.hpp"
#include "src/cublas_interposer/take_rules.hpp"

#define EGEMM_INTERPOSER_EXPORT extern "C" __attribute__((visibility("default")))

namespace egemm::interposer {

// Null when EGEMM_CUBLAS_POLICY (T = float) or EGEMM_CUBLAS_FP64_POLICY
// (T = double) names a tag; else why every such call passes through.
template <class T = float>
const char* policy_refusal() {
  constexpr bool fp64 = std::is_same_v<T, double>;
  switch ((fp64 ? fp64_policy_setting() : policy_setting()).kind) {
    case PolicySetting::Kind::tag: return nullptr;
    case PolicySetting::Kind::off: return fp64 ? "EGEMM_CUBLAS_FP64_POLICY is off (the default)" : "EGEMM_CUBLAS_POLICY=off";
    default: return fp64 ? "EGEMM_CUBLAS_FP64_POLICY is not a policy" : "EGEMM_CUBLAS_POLICY is not a policy";
  }
}

// The handle's settings (math and pointer modes), the transposes and the
// sizes: null where EGEMM may take the call.
// `fp64`: the FP64 math-mode rule (fp64_math_mode_refusal).
const char* handle_refusal(const RealCublas& real, cublasHandle_t handle, cublasOperation_t ta, cublasOperation_t tb,
                           long long m, long long n, long long k, long long lda, long long ldb, long long ldc,
                           bool fp64 = false);

// One handle-based call (batch 1 and zero strides for the plain gemms).
struct HandleCall {
  const char* entry;
  cublasHandle_t handle;
  cublasOperation_t ta, tb;
  long long m, n, k;
  const void* alpha;
  const void* a;
  long long lda, stride_a;
  const void* b;
  long long ldb, stride_b;
  const void* beta;
  void* c;
  long long ldc, stride_c;
  long long batch;
};

// `type_refusal`: the entry's own data/compute type rule (null for the
// S-entries). `forward(first_item)` calls the real function on items
// first_item.. of the batch (0 unless EGEMM ran the leading ones and then
// failed). A call cuBLAS makes to itself, or EGEMM makes, is forwarded with
// no check at all (reentrancy_guard.hpp).
// T: float (the S-entries, FP32 Ex calls) or double (the D-entries, FP64 Ex calls).
template <class T, class Forward>
cublasStatus_t handle_gemm_call(const HandleCall& c, const char* type_refusal, Forward&& forward) {
  if (nested_call()) return forward(0LL);
  const RealCublas& real = real_cublas();
  const char* why = policy_refusal<T>();
  if (why == nullptr) why = type_refusal;
  if (why == nullptr)
    why = handle_refusal(real, c.handle, c.ta, c.tb, c.m, c.n, c.k, c.lda, c.ldb, c.ldc, std::is_same_v<T, double>);
  if (why == nullptr && c.batch <= 0) why = c.batch == 0 ? "an empty batch" : "a negative batch count (cuBLAS reports it)";
  long long done = 0;
  if (why == nullptr) {
    cudaStream_t stream = nullptr;
    if (real.get_stream(c.handle, &stream) != CUBLAS_STATUS_SUCCESS) {
      why = "cublasGetStream failed on the handle";
    } else {
      const GemmProblem<T> p{c.ta, c.tb, c.m, c.n, c.k, *static_cast<const T*>(c.alpha),
                             static_cast<const T*>(c.a), c.lda, c.stride_a, static_cast<const T*>(c.b), c.ldb,
                             c.stride_b, *static_cast<const T*>(c.beta), static_cast<T*>(c.c), c.ldc,
                             c.stride_c, c.batch, stream};
      why = run_on_egemm(c.entry, p, &done);
      if (why == nullptr) return CUBLAS_STATUS_SUCCESS;
    }
  }
  log_passed(c.entry, transpose_char(c.ta), transpose_char(c.tb), c.m, c.n, c.k, c.batch, why);
  Inside inside;
  return forward(done);
}

}  // namespace egemm::interposer
