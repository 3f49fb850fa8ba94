// TF32 pieces: FP32's 8-bit exponent with 10 stored mantissa bits. A TF32
// value is an FP32 bit pattern whose 13 low mantissa bits are zero, so the
// pieces live in ordinary float storage and the tensor core reads them as is.
// Rounding is to nearest even, done in integer arithmetic so the host and the
// device produce the same bits (the PTX cvt.rna.tf32 rounds ties away: not used).
#pragma once

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"

namespace egemm::numerics {

inline constexpr float tf32_max_finite = 0x1.ffcp127f;  // larger magnitudes round to Inf
// Below 2^-126 TF32 keeps FP32's subnormal grid cut to its 10 stored bits:
// spacing 2^-136, where FP32 gemm rounds each product to 2^-149. A row whose
// largest magnitude is at least 2^-112 keeps its small piece's bits above
// 2^-123, and its tiny elements' error (under 2^-137) stays under 2^-24 of
// that largest magnitude, FP32's own normwise error; below 2^-112 the pieces
// lose bits FP32 keeps (a row of FP32 subnormals would be held to ~10 bits).
inline constexpr float tf32_min_full_precision = 0x1p-112f;

EGEMM_INLINE float round_to_tf32(float x) {
  const std::uint32_t u = float_bits(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;  // Inf, NaN: unchanged
  const std::uint32_t rest = u & 0x1fffu;
  std::uint32_t r = u & ~0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (r & 0x2000u))) r += 0x2000u;  // a carry into the exponent is right
  return bits_to_float(r);
}

struct Tf32Pieces {
  float big;
  float small;
};

// big = RN_tf32(x), small = RN_tf32(x - big): 22 significant bits over FP32's
// whole exponent range (CUTLASS's 3xTF32 split). Non-finite x: small = 0.
EGEMM_INLINE Tf32Pieces split_to_tf32(float x) {
  const float big = round_to_tf32(x);
  if (!is_finite(big)) return {big, 0.0f};
  return {big, round_to_tf32(x - big)};  // x - big is exact in FP32
}

}  // namespace egemm::numerics
