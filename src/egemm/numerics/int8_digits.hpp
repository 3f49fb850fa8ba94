// Int8Slices' numerics, shared by the host fallback and the CUDA kernels so
// both give the same bits:
//   e  = int8_row_exponent(row max):  every |x| of the row below 2^e, and
//        RN(max 2^(23 - e)) <= int8_slices_max_scaled
//   N  = RN(x 2^(23 - e)) = d0 2^16 + d1 2^8 + d2   (int8_digits: d1, d2 in
//        [-128, 127] by two's complement bytes, d0 then within [-127, 127])
//   P0 = sum d0 d0', P1 = sum d0 d1' + d1 d0', P2 = sum d1 d1' + d0 d2' + d2 d0'
//        (exact integers: int32 on the tensor cores up to int8_slices_max_depth)
//   C  = float(2^(e + e' - 30) (P0 2^16 + P1 2^8 + P2))  (int8_combine: the
//        integer in float64 exactly, one rounding to FP32)
#pragma once

#include <math.h>
#include <string.h>

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/pow2.hpp"
#include "egemm/policy.hpp"

namespace egemm::numerics {

struct Int8Digits {
  std::int8_t d0, d1, d2;  // most significant first
};

// The exponent of a row whose largest finite magnitude is `max_abs_finite`:
// the smallest e with |x| < 2^e whose scaled maximum also fits the digits
// (a maximum just below 2^e rounds to 2^23, one more power of two then).
// 0 for a row without nonzero finite values.
EGEMM_INLINE int int8_row_exponent(float max_abs_finite) {
  if (!(max_abs_finite > 0.0f) || !is_finite(max_abs_finite)) return 0;
  int e2 = 0;
  (void)::frexpf(max_abs_finite, &e2);  // max = f 2^e2, f in [0.5, 1): max < 2^e2
  return ::rintf(scale_by_pow2(max_abs_finite, 23 - e2)) > static_cast<float>(int8_slices_max_scaled) ? e2 + 1 : e2;
}

// N = RN(x 2^(23 - e)) for a finite x of a row with exponent e (|N| <=
// int8_slices_max_scaled); 0 for Inf and NaN (their entries are recomputed
// by the special-value pass).
EGEMM_INLINE std::int32_t int8_scaled_integer(float x, int e) {
  if (!is_finite(x)) return 0;
  return static_cast<std::int32_t>(::rintf(scale_by_pow2(x, 23 - e)));
}

// The digits of N: the low two as signed bytes, the rest exactly divisible.
EGEMM_INLINE Int8Digits int8_digits_of(std::int32_t n) {
  const auto d2 = static_cast<std::int8_t>(static_cast<std::uint8_t>(n & 0xff));
  const std::int32_t n1 = (n - d2) / 256;
  const auto d1 = static_cast<std::int8_t>(static_cast<std::uint8_t>(n1 & 0xff));
  return {static_cast<std::int8_t>((n1 - d1) / 256), d1, d2};
}

EGEMM_INLINE Int8Digits int8_digits(float x, int e) { return int8_digits_of(int8_scaled_integer(x, e)); }

// The same digits as bytes, for packing them without divisions: m = N +
// 0x808080 is not negative (|N| <= int8_slices_max_scaled), and byte i of m
// is digit d(2 - i) plus 128 (base-256 digits balanced around 0), so digit
// d(2 - i)'s two's-complement byte is byte i of m XOR 0x80.
inline constexpr std::uint32_t int8_digit_bias = 0x808080u;
EGEMM_INLINE std::uint32_t int8_biased_digits(std::int32_t n) {
  return static_cast<std::uint32_t>(n) + int8_digit_bias;  // wraps to N + 0x808080 >= 0
}

// NormwiseFP32's row rule (its cross rule, numerics/int8_cross_rule.hpp,
// sees how the two operands meet). Int8Slices' error follows a row's spread
// R = 2^e / mean|x| (each element is held to 2^(e - 24), whatever its size): about
// 2-2.4 units of 2^-24 per unit of R on the host study's input families
// (perf_tests/int8_accuracy: egemm_int8_accuracy_study), where FP32's
// (summed in k order) is about 0.3 sqrt(k) units. So the digits are taken
// where every row has R <= sqrt(k) / 10: at most ~0.8x FP32's error. A row's
// weight W = sum of |N| / 256 (rounded down, each below 2^15: an int32 sum up
// to int8_slices_max_depth values) gives R = 2^15 k / W, so the rule is
// 100 * 2^30 k <= W^2, or an all-zero row (W = 0 only then: the largest
// element has |N| >= 2^22). In float64 (W^2 up to ~2^62, rounded alike on
// the host and the GPU).
EGEMM_INLINE std::uint32_t int8_row_weight(std::int32_t n) { return static_cast<std::uint32_t>(n < 0 ? -n : n) >> 8; }

EGEMM_INLINE bool int8_digits_hold_row(std::uint32_t weight, long long k) {
  const double w = static_cast<double>(weight);
  return weight == 0 || 100.0 * 0x1p30 * static_cast<double>(k) <= w * w;
}

// 2^e as a float64, for FP64's normal exponents (|e| <= 1022).
EGEMM_INLINE double pow2_double(int e) {
  const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
  double d;
  ::memcpy(&d, &bits, sizeof d);
  return d;
}

// P0 2^16 + P1 2^8 + P2: below 2^47 in magnitude for sums of
// int8_slices_max_depth values, so a float64 holds it exactly.
EGEMM_INLINE double int8_exact_sum(std::int64_t p0, std::int64_t p1, std::int64_t p2) {
  return static_cast<double>(p0 * 65536 + p1 * 256 + p2);
}

// An exact sum's entry, 2^(exponent - 30) exact_sum, rounded once to FP32
// (the power-of-two scaling is exact in float64).
EGEMM_INLINE float int8_scale_round(double exact_sum, int exponent) {
  return static_cast<float>(exact_sum * pow2_double(exponent - 30));
}

EGEMM_INLINE float int8_combine(std::int64_t p0, std::int64_t p1, std::int64_t p2, int exponent) {
  return int8_scale_round(int8_exact_sum(p0, p1, p2), exponent);
}

}  // namespace egemm::numerics
