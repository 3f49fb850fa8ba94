// The epilogue every backend applies to an accumulated entry, written once so
// host and device round identically:
//   v = main + 2^-lo_scale * correction      (one RN add)
//   v = v * 2^(row exponent + column exponent)  (exact unless v leaves FP32's range)
//   C = alpha * v                  when beta == 0 (C is not read)
//   C = fma(alpha, v, beta * C)    otherwise
#pragma once

#include <math.h>

#include "egemm/config.hpp"

namespace egemm {

// Policies without a correction accumulator pass correction = 0 (main + 0 is
// main, up to the sign of a zero).
EGEMM_INLINE float combine_accumulators(float main, float correction, int lo_scale_log2, int exponent) {
  const float v = main + ::ldexpf(correction, -lo_scale_log2);
  return exponent != 0 ? ::ldexpf(v, exponent) : v;
}

EGEMM_INLINE float apply_alpha_beta(float v, float alpha, float beta, const float* c) {
  return beta == 0.0f ? alpha * v : ::fmaf(alpha, v, beta * *c);
}

}  // namespace egemm
