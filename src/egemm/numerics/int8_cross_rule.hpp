// NormwiseFP32's cross rule: whether Int8Slices' digits are as accurate as
// FP32 in norm, given how the elements of op(A) and op(B) meet along k.
// Shared by the host oracle and the GPU's route, which sum the same terms in
// the same order (float64, each step rounded as IEEE), so both decide alike.
//
// The model (docs/numerics.md, section 8). An element of a row with exponent
// e is held to 2^(e-24) whatever its size, and each digit product it enters
// drops terms of about 2^(e+f-24) (f: the other operand's exponent). With
// rounding errors that behave as random, the digits' squared error in C is
// about 2^-48 sum_p (z_p r_p + c_p w_p + z_p w_p), and FP32's (each nonzero
// product's addition rounds the running sum) about 2^-48 k_eff sum_p c_p r_p,
// where for every depth index p, over op(A)'s rows i (op(B)'s columns j alike):
//   c_p = sum_i a_ip^2,  z_p = sum of 4^e_i over the nonzero a_ip,  n_p = #{i: a_ip != 0}
// (r_p, w_p, n'_p: op(B)'s), and k_eff = sum_p n_p n'_p / (m n), the
// nonzero products an entry sums. A row's large elements meeting the other
// operand's zeros while its small ones meet its mass, interleaved or not,
// shows in these sums; in each row's spread alone it does not.
//
// The order (what the GPU does, and the host repeats), two sums alike: a
// *strided sum* of items 0, 1, ..., N - 1 gives lane l in [0, 32) the sum of
// items l, l + 32, l + 64, ... in order, then folds the 32 lanes by halving
// (v[l] += v[l + s] for s = 16, 8, ..., 1). Each operand's p: a partial per
// 32-row panel (its rows in order), the panels' strided sum. Each p's three
// terms, summed within groups of 32 consecutive p by halving, and the
// groups' strided sum. (32 lanes: a GPU block reads 32 row panels at once,
// a warp 32 consecutive p; zero padding adds exact zeros on either side.)
#pragma once

#include <cstdint>

#include "egemm/config.hpp"
#include "egemm/numerics/half_bits.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::numerics {

inline constexpr int int8_cross_panel_rows = 32;  // rows per partial (the split's row panel)
inline constexpr int int8_cross_lanes = 32;       // lanes of a strided sum; depth indices per group

// IEEE float64 add and multiply, never contracted into an FMA (the host
// build has -ffp-contract=off; nvcc contracts unless told).
EGEMM_INLINE double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
EGEMM_INLINE double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}

// One operand's column sums at a depth index p (or a part of its rows):
// c_p, z_p and n_p of the model above.
struct Int8ColumnSum {
  double squares = 0.0;        // c_p
  double weights = 0.0;        // z_p
  std::uint32_t nonzeros = 0;  // n_p
};

// One element's part in them (row exponent e: int8_row_exponent). Inf and
// NaN count as zeros: their entries are recomputed apart.
EGEMM_INLINE bool int8_counts(float x) { return is_finite(x) && x != 0.0f; }
EGEMM_INLINE double int8_column_square(float x) {
  const double d = int8_counts(x) ? static_cast<double>(x) : 0.0;
  return mul_rn(d, d);  // exact: 24 bits squared fit float64's 53
}
EGEMM_INLINE double int8_row_square_weight(int e) { return pow2_double(2 * e); }  // 4^e
EGEMM_INLINE double int8_column_weight(float x, int e) { return int8_counts(x) ? int8_row_square_weight(e) : 0.0; }
EGEMM_INLINE Int8ColumnSum int8_column_part(float x, int e) {
  return {int8_column_square(x), int8_column_weight(x, e), int8_counts(x) ? 1u : 0u};
}

EGEMM_INLINE Int8ColumnSum add_rn(const Int8ColumnSum& x, const Int8ColumnSum& y) {
  return {add_rn(x.squares, y.squares), add_rn(x.weights, y.weights), x.nonzeros + y.nonzeros};
}

// The model's three sums over p (or a part of them).
struct Int8CrossTerms {
  double digits = 0.0;  // sum_p z_p r_p + c_p w_p + z_p w_p
  double fp32 = 0.0;    // sum_p c_p r_p
  double pairs = 0.0;   // sum_p n_p n'_p
};

EGEMM_INLINE Int8CrossTerms add_rn(const Int8CrossTerms& x, const Int8CrossTerms& y) {
  return {add_rn(x.digits, y.digits), add_rn(x.fp32, y.fp32), add_rn(x.pairs, y.pairs)};
}

// Depth index p's terms from op(A)'s column sums there (a) and op(B)'s (b).
EGEMM_INLINE Int8CrossTerms int8_cross_terms(const Int8ColumnSum& a, const Int8ColumnSum& b) {
  Int8CrossTerms t;
  t.digits = add_rn(add_rn(mul_rn(a.weights, b.squares), mul_rn(a.squares, b.weights)), mul_rn(a.weights, b.weights));
  t.fp32 = mul_rn(a.squares, b.squares);
  t.pairs = mul_rn(static_cast<double>(a.nonzeros), static_cast<double>(b.nonzeros));
  return t;
}

// The digits' squared error at most int8_cross_bound times FP32's: on the
// host study's families and the structured cases the measured ratio of
// squared errors is 1.4-2.9 times the model's (docs/numerics.md, section 8),
// so the digits stay at ~0.75x FP32's error or below. digits <= bound k_eff
// fp32, as m n digits <= bound pairs fp32 (with no nonzero product both
// sides are 0: the digits are exact).
inline constexpr double int8_cross_bound = 0.2;
EGEMM_INLINE bool int8_digits_hold_product(const Int8CrossTerms& t, long long m, long long n) {
  const double entries = mul_rn(static_cast<double>(m), static_cast<double>(n));
  return mul_rn(entries, t.digits) <= mul_rn(mul_rn(int8_cross_bound, t.pairs), t.fp32);
}

}  // namespace egemm::numerics
