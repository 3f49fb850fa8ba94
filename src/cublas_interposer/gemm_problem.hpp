// One FP32 or FP64 product (or a strided batch of them) in cuBLAS's terms, and its run on EGEMM.
#pragma once

#include <cublas_v2.h>

namespace egemm::interposer {

// C_i = alpha op(A_i) op(B_i) + beta C_i for i < batch, A_i = a + i stride_a
// (likewise B, C), on `stream`. Leading dimensions as cuBLAS took them.
template <class T>
struct GemmProblem {
  cublasOperation_t trans_a, trans_b;
  long long m, n, k;
  T alpha;
  const T* a;
  long long lda, stride_a;
  const T* b;
  long long ldb, stride_b;
  T beta;
  T* c;
  long long ldc, stride_c;
  long long batch;
  cudaStream_t stream;
};
using Fp32Problem = GemmProblem<float>;
using Fp64Problem = GemmProblem<double>;

// Runs the problem on EGEMM with the process's tag, or says why not:
// returns null when EGEMM ran every item. Otherwise it returns why, and
// *items_done says how many leading items EGEMM ran (0 unless an item failed
// after others ran): the caller hands the rest to cuBLAS. A batch runs as a
// loop of EGEMM calls on the stream, only where the engine takes the batch
// (each item large enough that a call each beats cuBLAS's one launch);
// otherwise the whole batched call goes to cuBLAS, which runs it in one launch.
// The caller has checked the policy is a tag (policy_setting() for FP32,
// fp64_policy_setting() for FP64).
const char* run_on_egemm(const char* entry, const Fp32Problem& p, long long* items_done);
const char* run_on_egemm(const char* entry, const Fp64Problem& p, long long* items_done);

}  // namespace egemm::interposer
