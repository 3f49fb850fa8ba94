// Hands an FP32 or FP64 problem to the engine, item by item, under the reentrancy guard.
#include "src/cublas_interposer/gemm_problem.hpp"

#include "src/cublas_interposer/call_log.hpp"
#include "src/cublas_interposer/engine_loader.hpp"
#include "src/cublas_interposer/policy_setting.hpp"
#include "src/cublas_interposer/reentrancy_guard.hpp"
#include "src/cublas_interposer/take_rules.hpp"

#include <string>

namespace egemm::interposer {

namespace {

// The engine's entries and the process's tag for T.
template <class T>
struct Precision;
template <>
struct Precision<float> {
  static const PolicySetting& policy() { return policy_setting(); }
  static auto takes(const egemm_cublas_engine* e) { return e->takes; }
  static auto gemm(const egemm_cublas_engine* e) { return e->gemm; }
};
template <>
struct Precision<double> {
  static const PolicySetting& policy() { return fp64_policy_setting(); }
  static auto takes(const egemm_cublas_engine* e) { return e->takes64; }
  static auto gemm(const egemm_cublas_engine* e) { return e->gemm64; }
};

template <class T>
const char* run(const char* entry, const GemmProblem<T>& p, long long* items_done) {
  *items_done = 0;
  const egemm_cublas_engine* e = engine();
  if (e == nullptr) return engine_failure();
  const PolicySetting& policy = Precision<T>::policy();
  const int id = static_cast<int>(policy.id);
  const char ta = transpose_char(p.trans_a), tb = transpose_char(p.trans_b);
  // EGEMM's own cuBLAS calls (the SGEMM and DGEMM hand-offs, cuBLASLt plans) from here on reach the real cuBLAS.
  Inside inside;
  const char* why = nullptr;
  if (Precision<T>::takes(e)(id, p.m, p.n, p.k, p.batch, &why) == 0) return why;
  // Thread-local: the message outlives this call (the caller logs it) and threads do not share it.
  thread_local char failure[512];
  for (long long i = 0; i < p.batch; ++i) {
    if (Precision<T>::gemm(e)(id, ta, tb, p.m, p.n, p.k, p.alpha, p.a + i * p.stride_a, p.lda, p.b + i * p.stride_b,
                              p.ldb, p.beta, p.c + i * p.stride_c, p.ldc, p.stream, failure, sizeof failure) != 0) {
      *items_done = i;
      taken_calls.fetch_add(static_cast<unsigned long long>(i), std::memory_order_relaxed);
      return failure;
    }
  }
  taken_calls.fetch_add(static_cast<unsigned long long>(p.batch), std::memory_order_relaxed);
  log_taken(entry, ta, tb, p.m, p.n, p.k, p.batch, policy.name);
  return nullptr;
}

}  // namespace

const char* run_on_egemm(const char* entry, const Fp32Problem& p, long long* items_done) {
  return run(entry, p, items_done);
}
const char* run_on_egemm(const char* entry, const Fp64Problem& p, long long* items_done) {
  return run(entry, p, items_done);
}

}  // namespace egemm::interposer
