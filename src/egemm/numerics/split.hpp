// Splitting one FP32 value into FP16 pieces, and the power-of-two scaling
// that maps a row (column) into FP16's range. Shared by the host fallback and
// the CUDA split kernels, so both produce the same bits.
#pragma once

#include <math.h>
#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/pow2.hpp"
#include "egemm/policy.hpp"

namespace egemm::numerics {

struct HalfPieces {
  std::uint16_t hi;
  std::uint16_t lo;  // 0 when the rule has one piece
};

// Splits x by `rule`. Non-finite x (and a finite x whose hi overflows FP16)
// gets lo = 0: such entries are recomputed in plain FP32 by the special-value
// pass, so lo only has to stay harmless.
EGEMM_INLINE HalfPieces split_to_half(float x, SplitRule rule) {
  const HalfRounding hi_rounding = rule == SplitRule::truncate ? HalfRounding::toward_zero : HalfRounding::nearest_even;
  const std::uint16_t hi = float_to_half_bits(x, hi_rounding);
  if (rule == SplitRule::round_hi_only || rule == SplitRule::none) return {hi, 0};
  const float hi_value = half_bits_to_float(hi);
  if (!is_finite(hi_value)) return {hi, 0};
  float rest = x - hi_value;  // exact: |rest| <= ulp_fp16(x), which FP32 holds
  if (rule == SplitRule::round_scaled_lo) rest *= 2048.0f;  // exact power-of-two scaling
  return {hi, float_to_half_bits(rest, HalfRounding::nearest_even)};
}

// The power of two that brings a row's largest magnitude into [2^14, 2^15):
// scaled = x * 2^-e. 0 for an all-zero (or all-non-finite) row.
EGEMM_INLINE int range_exponent(float max_abs_finite) {
  if (!(max_abs_finite > 0.0f) || !is_finite(max_abs_finite)) return 0;
  int e2 = 0;
  (void)::frexpf(max_abs_finite, &e2);  // max = f * 2^e2, f in [0.5, 1)
  return (e2 - 1) - 14;
}

}  // namespace egemm::numerics
