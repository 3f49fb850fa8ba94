// EmulatedFP64's float64 entries (rows or columns with Inf/NaN or too wide a
// spread for the moduli, products that may overflow): float64 fused
// multiply-adds in k order in blocks of 32, each block's sum added to a
// compensated total (Neumaier's TwoSum), so the sum is at least as accurate
// as DGEMM's (whose chains of fused multiply-adds are longer). The host
// oracle and the CUDA kernels share it, so both give the same bits.
// Non-finite sums are DGEMM's: once the total is Inf or NaN it is the entry.
#pragma once

#include <math.h>

#include "egemm/config.hpp"
#include "egemm/numerics/int8_cross_rule.hpp"  // add_rn

namespace egemm::numerics {

inline constexpr int float64_block = 32;

struct CompensatedSum {
  double sum = 0.0, compensation = 0.0;
};

EGEMM_INLINE double sub_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dsub_rn(a, b);
#else
  return a - b;
#endif
}
EGEMM_INLINE double fma_rn(double a, double b, double c) {
#if defined(__CUDA_ARCH__)
  return __fma_rn(a, b, c);
#else
  return ::fma(a, b, c);
#endif
}

// total += block, the rounding error of the add kept (while the total is finite).
EGEMM_INLINE void fold_block(CompensatedSum& s, double block) {
  const double t = add_rn(s.sum, block);
  if (isfinite(t)) {
    const double bb = sub_rn(t, s.sum);
    s.compensation = add_rn(s.compensation, add_rn(sub_rn(s.sum, sub_rn(t, bb)), sub_rn(block, bb)));
  }
  s.sum = t;
}

EGEMM_INLINE double value_of(const CompensatedSum& s) { return isfinite(s.sum) ? add_rn(s.sum, s.compensation) : s.sum; }

// sum_p a[p a_step] b[p b_step] for p < k, as above.
EGEMM_INLINE double float64_dot(const double* a, long long a_step, const double* b, long long b_step, long long k) {
  CompensatedSum s;
  for (long long p0 = 0; p0 < k; p0 += float64_block) {
    const long long end = p0 + float64_block < k ? p0 + float64_block : k;
    double block = 0.0;
    for (long long p = p0; p < end; ++p) block = fma_rn(a[p * a_step], b[p * b_step], block);
    fold_block(s, block);
  }
  return value_of(s);
}

}  // namespace egemm::numerics
