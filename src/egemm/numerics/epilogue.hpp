// The epilogue every backend applies to an accumulated entry, written once so
// host and device round identically:
//   v = main + 2^-lo_scale * correction      (one RN add; main alone where
//                                             it is +-Inf or NaN: FP32 gemm's overflow)
//   v = v * 2^(row exponent + column exponent)  (exact unless v leaves FP32's range)
//   C = alpha * v                  when beta == 0 (C is not read)
//   C = fma(alpha, v, beta * C)    otherwise
#pragma once

#include <math.h>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/pow2.hpp"

namespace egemm {

// main + 2^-lo_scale * correction, each step rounded as IEEE (the scaling is
// exact unless it lands below FP32's normal range; then rounded once, as
// ldexpf rounds). Policies without a correction accumulator pass correction
// = 0 (main + 0 is main, up to the sign of a zero).
//
// Where main is +-Inf or NaN it is the entry: the correction's products are
// those of main's row and column with one piece 2^-11 smaller, so they
// overflow only where main's do, and with the sign of a small piece, which
// may be the other one (Inf - Inf would make an overflow NaN where FP32 gemm
// gives Inf: Overflow.* in unit_tests/test_overflow.cpp). A select, no branch.
// MainMayOverflow = false drops it where the pieces are scaled to the rows'
// and columns' exponents (main is then far inside FP32's range, and entries
// with Inf/NaN inputs are left to the special-value pass): the same bits, and
// the device epilogue, which is issue-bound, keeps its instruction count.
template <bool MainMayOverflow = true>
EGEMM_INLINE float add_correction(float main, float correction, int lo_scale_log2) {
#if defined(__CUDA_ARCH__)
  const float v = __fadd_rn(main, __fmul_rn(correction, numerics::pow2_normal(-lo_scale_log2)));  // no FMA contraction
#else
  const float v = main + ::ldexpf(correction, -lo_scale_log2);
#endif
  if constexpr (MainMayOverflow) return numerics::is_finite(main) ? v : main;
  return v;
}

#if defined(__CUDA_ARCH__)
namespace detail {
// The rare exponent outside FP32's normal powers, out of line.
static __device__ __noinline__ float scale_out_of_line(float v, int e) { return numerics::scale_by_pow2(v, e); }
}  // namespace detail
#endif

// The accumulated entry, the row and column scaling undone, rounded once as
// ldexpf rounds. On the device a multiply by a normal power of two, the rare
// exponent outside those out of line (ldexpf inline puts its branches around
// every entry and makes the epilogue issue-bound); the same bits for finite
// and infinite accumulators (entries with Inf/NaN inputs are left to the
// special-value pass; an overflowed sum is +-Inf either way), and NaN for a
// NaN (products overflowing with both signs), whose payload no gemm promises.
template <bool MainMayOverflow = true>
EGEMM_INLINE float combine_accumulators(float main, float correction, int lo_scale_log2, int exponent) {
  const float v = add_correction<MainMayOverflow>(main, correction, lo_scale_log2);
#if defined(__CUDA_ARCH__)
  return numerics::is_normal_pow2(exponent) ? v * numerics::pow2_normal(exponent)
                                            : detail::scale_out_of_line(v, exponent);
#else
  return exponent != 0 ? ::ldexpf(v, exponent) : v;
#endif
}

// alpha v, plus beta C when ReadsC: apply_alpha_beta with beta's test made
// once by the caller (the device epilogue hoists it out of its loops).
template <bool ReadsC>
EGEMM_INLINE float alpha_beta(float v, float alpha, float beta, const float* c) {
  if constexpr (ReadsC) return ::fmaf(alpha, v, beta * *c);
  return alpha * v;
}

EGEMM_INLINE float apply_alpha_beta(float v, float alpha, float beta, const float* c) {
  return beta == 0.0f ? alpha_beta<false>(v, alpha, beta, c) : alpha_beta<true>(v, alpha, beta, c);
}

}  // namespace egemm
