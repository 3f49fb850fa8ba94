// Scaling by powers of two, rounded once as ldexpf rounds: the split's row
// scaling and the epilogue's unscaling. On the device a multiply by a normal
// power of two (one instruction) replaces ldexpf's call wherever it gives the
// same bits.
#pragma once

#include <math.h>
#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"

namespace egemm::numerics {

// Whether 2^e is a normal float (-126 <= e <= 127), pow2_normal's domain, in
// one unsigned compare (exponents here are far from int's limits).
EGEMM_INLINE bool is_normal_pow2(int e) { return static_cast<unsigned>(e + 126) <= 253u; }

// 2^e as a float, for -126 <= e <= 127 (a normal number).
EGEMM_INLINE float pow2_normal(int e) { return bits_to_float(static_cast<std::uint32_t>(e + 127) << 23); }

// x * 2^e, exact unless the result leaves FP32's normal range (then rounded
// once, as ldexpf does).
EGEMM_INLINE float scale_by_pow2(float x, int e) {
#if defined(__CUDA_ARCH__)
  // A multiply by a normal power of two rounds once, like ldexpf, in one
  // instruction; growth past 2^127 is two multiplies, the first exact (growth
  // loses no bits; where it overflows, so would the whole product). NaN
  // goes to ldexpf, which keeps its payload.
  if (x != x) return ::ldexpf(x, e);
  if (is_normal_pow2(e)) return x * pow2_normal(e);
  if (e > 127 && e <= 254) return x * pow2_normal(127) * pow2_normal(e - 127);
#endif
  return ::ldexpf(x, e);
}

}  // namespace egemm::numerics
