// libegemm_cublas_engine.so: the interposer's way into EGEMM (engine_abi.h), a C interface over egemm::detail::gemm_cuda.
#include <cstdio>
#include <exception>

#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "src/cublas_interposer/engine_abi.h"

namespace {

bool emulated(egemm::PolicyId id) { return id != egemm::PolicyId::native_fp32; }

// A batch runs as a call per item only where each item is at least this
// much work (m n k): 2048 x 2048 x 512, where one EmulatedFP32 call keeps an
// H200 busy ~50 us (1.7x SGEMM's speed) against ~30 us of host time, so a
// loop of calls is not bound by the host. Smaller items (1024^3 runs at 1.5x
// SGEMM alone) would each pay their own launches where cuBLAS launches the
// batch once.
constexpr double batch_item_min_work = 2048.0 * 2048.0 * 512.0;

// Why EGEMM does not take `batch` m x n x k products with `id`'s FP32 tag on
// the current device, or null where it does. May throw (a device query).
const char* fp32_refusal(egemm::PolicyId id, int64_t m, int64_t n, int64_t k, int64_t batch) {
  if (!emulated(id)) return "NativeFP32 is cuBLAS SGEMM itself";
  // Where EmulatedFP32 would hand the shape to SGEMM (C of too few tiles
  // for its depth, or too thin or shallow to repay the split), the caller's cuBLAS
  // call is that SGEMM, with the caller's own settings; the other emulated
  // tags have no faster way there either. One device query: every call
  // passed through pays for this decision.
  switch (egemm::detail::emulated_fp32_route(m, n, k)) {
    case egemm::detail::EmulationRoute::no_device: return "the current device is not one EGEMM runs on";
    case egemm::detail::EmulationRoute::hand_off: return "EGEMM would hand this shape to SGEMM (too small or thin to gain)";
    case egemm::detail::EmulationRoute::tensor_cores: break;
  }
  if (batch > 1 && static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) < batch_item_min_work)
    return "a batch of products below 2048 x 2048 x 512 each: cuBLAS's one launch beats a call each";
  return nullptr;
}

// FP64: the products EmulatedFP64 runs on the INT8 tensor cores (4096 and up
// in every extent, k below 2^17: egemm::emulated_fp64_uses_tensor_cores);
// batches pass through (a call per item would not beat cuBLAS's one launch
// where the items are small, and no FP64 batch has been measured).
const char* fp64_refusal(egemm::PolicyId id, int64_t m, int64_t n, int64_t k, int64_t batch) {
  if (id != egemm::PolicyId::emulated_fp64) return "not an FP64 tag";
  if (batch != 1) return "an FP64 batch (EGEMM takes FP64 products one call at a time)";
  switch (egemm::detail::emulated_fp64_route(m, n, k)) {
    case egemm::detail::EmulationRoute::no_device: return "the current device is not one EGEMM runs on";
    case egemm::detail::EmulationRoute::hand_off: return "EGEMM would hand this shape to DGEMM (too small to gain)";
    case egemm::detail::EmulationRoute::tensor_cores: break;
  }
  return nullptr;
}

// The ABI's takes / takes64 over a refusal rule: 1, or 0 with *why set (an
// exception from a device query is a refusal too: nothing crosses the C ABI).
template <const char* (*Refusal)(egemm::PolicyId, int64_t, int64_t, int64_t, int64_t)>
int takes_by(int policy, int64_t m, int64_t n, int64_t k, int64_t batch, const char** why) {
  try {
    if (const char* refusal = Refusal(static_cast<egemm::PolicyId>(policy), m, n, k, batch)) {
      *why = refusal;
      return 0;
    }
    return 1;
  } catch (const std::exception&) {
    *why = "EGEMM cannot query the current device";
    return 0;
  }
}

// The ABI's gemm (T = float) and gemm64 (T = double): 0, or 1 with EGEMM's message in `why` and C untouched.
template <class T>
int gemm_of(int policy, char ta, char tb, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
            const T* b, int64_t ldb, T beta, T* c, int64_t ldc, void* stream, char* why, size_t why_size) {
  try {
    egemm::detail::gemm_cuda(static_cast<egemm::PolicyId>(policy),
                             egemm::make_gemm_args("libegemm_cublas", ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc),
                             static_cast<egemm::cuda_stream_t>(stream));
    return 0;
  } catch (const std::exception& e) {
    std::snprintf(why, why_size, "EGEMM refused: %s", e.what());
  } catch (...) {
    std::snprintf(why, why_size, "EGEMM refused with an unknown exception");
  }
  return 1;
}

constexpr egemm_cublas_engine the_engine{EGEMM_CUBLAS_ENGINE_ABI, &takes_by<fp32_refusal>, &gemm_of<float>,
                                         &takes_by<fp64_refusal>, &gemm_of<double>};

}  // namespace

extern "C" __attribute__((visibility("default"))) const egemm_cublas_engine* egemm_cublas_engine_v1(void) {
  return &the_engine;
}
