// Hands an FP32 problem to the engine, item by item, under the reentrancy guard.
#include "src/cublas_interposer/fp32_problem.hpp"

#include "src/cublas_interposer/call_log.hpp"
#include "src/cublas_interposer/engine_loader.hpp"
#include "src/cublas_interposer/policy_setting.hpp"
#include "src/cublas_interposer/reentrancy_guard.hpp"
#include "src/cublas_interposer/take_rules.hpp"

#include <string>

namespace egemm::interposer {

const char* run_on_egemm(const char* entry, const Fp32Problem& p, long long* items_done) {
  *items_done = 0;
  const egemm_cublas_engine* e = engine();
  if (e == nullptr) return engine_failure();
  const PolicySetting& policy = policy_setting();
  const int id = static_cast<int>(policy.id);
  const char ta = transpose_char(p.trans_a), tb = transpose_char(p.trans_b);
  // EGEMM's own cuBLAS calls (the SGEMM hand-off, cuBLASLt plans) from here on reach the real cuBLAS.
  Inside inside;
  const char* why = nullptr;
  if (e->takes(id, p.m, p.n, p.k, p.batch, &why) == 0) return why;
  // Thread-local: the message outlives this call (the caller logs it) and threads do not share it.
  thread_local char failure[512];
  for (long long i = 0; i < p.batch; ++i) {
    if (e->gemm(id, ta, tb, p.m, p.n, p.k, p.alpha, p.a + i * p.stride_a, p.lda, p.b + i * p.stride_b, p.ldb, p.beta,
                p.c + i * p.stride_c, p.ldc, p.stream, failure, sizeof failure) != 0) {
      *items_done = i;
      taken_calls.fetch_add(static_cast<unsigned long long>(i), std::memory_order_relaxed);
      return failure;
    }
  }
  taken_calls.fetch_add(static_cast<unsigned long long>(p.batch), std::memory_order_relaxed);
  log_taken(entry, ta, tb, p.m, p.n, p.k, p.batch, policy.name);
  return nullptr;
}

}  // namespace egemm::interposer
