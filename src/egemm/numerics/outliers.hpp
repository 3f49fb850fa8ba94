// EmulatedFP32's sparse outliers: the few elements of a row of op(A) (column
// of op(B)) far above the bulk of that row, which would otherwise make the row
// too wide for its scaled FP16 pieces. Shared by the host oracle and the CUDA
// split, so both pick the same elements and add their products in the same order.
//
// The rule, from statistics the split gathers in its one read of the operands:
// a row's *typical* magnitude is the second largest finite |x| among its first
// exponent_guess_values values (the values the exponent guess reads; the
// second largest, so that one outlier among them does not hide the others),
// and an element is a *candidate* when it is finite and at least
// 2^outlier_gap_log2 times that, rounded down to a power of two. A row whose
// elements all fit the scaled FP16 split keeps its candidates in its pieces;
// a row that does not fit, but would without them, and has at most
// max_outliers_per_row(k) of them, has them zeroed in its pieces (its scale
// is then set by the bulk) and their products added apart in float64
// (docs/numerics.md, section 2).
#pragma once

#include <math.h>

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/pow2.hpp"
#include "egemm/numerics/row_exponent.hpp"

namespace egemm::numerics {

// How far above the row's typical magnitude a candidate starts: 2^8. Gaussian
// and uniform rows of any length never reach it (a Gaussian row of 65536
// values peaks near 4.5 sigma; the second largest of its first 32 values
// lies above 0.9 sigma but for one row in ~10^7), so such data is never
// touched; outliers of the sizes that make a row wide (2^15 and more above
// its bulk) are far beyond it.
inline constexpr int outlier_gap_log2 = 8;

// Slots a row's candidates are recorded in: the most any row routes.
inline constexpr int outlier_slots = 8;

// The most candidates a row may have and still take the route, for depth k:
// k / 256, at most outlier_slots. Each routed outlier costs about 8 bytes of
// memory traffic per entry of C it touches (its product's operand and C's
// read-modify-write), where the FP16 gemm spends 2k flops per entry at ~200
// TFLOP/s, and the TF32 path, today's alternative, ~0.8x more again: the
// route pays while 8 (1 + c) / (4.8 TB/s) < 0.8 * 2k / (200 TFLOP/s), i.e.
// c < k / 208 - 1 outliers per row on an H200; k / 256 stays inside that.
// Beyond it the row counts as wide, and the wide-row rule decides as before.
EGEMM_INLINE int max_outliers_per_row(long long k) {
  const long long c = k / 256;
  return c < outlier_slots ? static_cast<int>(c) : outlier_slots;
}

// The smallest magnitude that is a candidate in a row whose first values'
// second largest finite magnitude is `second`; +Inf (nothing is) when that
// is 0 (fewer than two nonzero values to judge by) or the threshold passes FP32's range.
EGEMM_INLINE float outlier_threshold(float second) {
  if (!(second > 0.0f)) return bits_to_float(0x7f800000u);
  return scale_by_pow2(1.0f, floor_log2(second) + outlier_gap_log2);
}

// Whether x is a candidate under `threshold` (as bits: |x| bits order like |x|).
EGEMM_INLINE bool is_outlier_candidate(float x, std::uint32_t threshold_bits) {
  const std::uint32_t a = float_bits(x) & 0x7fffffffu;
  return a >= threshold_bits && a < 0x7f800000u;
}

// The two largest of a list of magnitudes, fed one at a time or merged (the
// device's lanes merge theirs); the result does not depend on the order.
struct TopTwo {
  float first = 0.0f, second = 0.0f;
  EGEMM_INLINE void add(float v) {
    second = fmaxf(second, fminf(first, v));
    first = fmaxf(first, v);
  }
  EGEMM_INLINE void merge(TopTwo o) {
    second = fmaxf(fmaxf(second, o.second), fminf(first, o.first));
    first = fmaxf(first, o.first);
  }
};

// One routed outlier's contribution to an entry of C: acc + x y in float64,
// one rounding (x y is exact in float64, so fma and add give the same bits).
EGEMM_INLINE double add_outlier_product(double acc, float x, float y) {
  return ::fma(static_cast<double>(x), static_cast<double>(y), acc);
}

// The entry after the correction: c (the dense part's entry, alpha and beta
// applied) plus alpha times the outliers' float64 sum, rounded once to FP32.
EGEMM_INLINE float add_outlier_correction(float c, float alpha, double correction) {
  return static_cast<float>(::fma(static_cast<double>(alpha), correction, static_cast<double>(c)));
}

}  // namespace egemm::numerics
