// Int8Slices' numerics (numerics/int8_digits.hpp): the row exponent fills
// the digits without overflowing them, every scaled integer in range is its
// three signed digits, and the combine is the exact sum rounded once; and
// NormwiseFP32's two rules (int8_digits.hpp, int8_cross_rule.hpp).
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "egemm/numerics/int8_cross_rule.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/int8_entries_rule.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using numerics::int8_combine;
using numerics::int8_digits_of;
using numerics::int8_row_exponent;
using numerics::int8_scaled_integer;

void expect_digits_of(std::int32_t n) {
  const numerics::Int8Digits d = int8_digits_of(n);
  EXPECT_EQ(d.d0 * 65536 + d.d1 * 256 + d.d2, n) << n;
  EXPECT_GE(d.d0, -127) << n;
  EXPECT_LE(d.d0, 127) << n;
}

TEST(Int8Digits, EveryScaledIntegerInRangeIsItsThreeDigits) {
  for (std::int32_t n : {0, 1, -1, 127, 128, -128, -129, 255, 256, 0x7F7F7F, -0x7F7F7F, 0x7F7F80 - 1, 0x10000, -0x10000,
                         0x7FFF, -0x8000, 0x7F8000 - 1})
    if (n <= int8_slices_max_scaled && n >= -int8_slices_max_scaled) expect_digits_of(n);
  std::mt19937 gen(static_cast<std::uint32_t>(test::fresh_seed()));
  std::uniform_int_distribution<std::int32_t> any(-int8_slices_max_scaled, int8_slices_max_scaled);
  for (int i = 0; i < 100000; ++i) expect_digits_of(any(gen));
}

// The CUDA split packs digits from the biased integer's bytes: for every N in
// range, byte i of N + 0x808080, XOR 0x80, is digit d(2 - i)'s byte.
TEST(Int8Digits, TheBiasedIntegersBytesAreTheDigitsOfEveryScaledInteger) {
  std::int64_t wrong = 0;
  for (std::int32_t n = -int8_slices_max_scaled; n <= int8_slices_max_scaled; ++n) {
    const numerics::Int8Digits d = int8_digits_of(n);
    const std::uint32_t m = numerics::int8_biased_digits(n);
    const bool same = (m & 0xffu) == (static_cast<std::uint8_t>(d.d2) ^ 0x80u) &&
                      ((m >> 8) & 0xffu) == (static_cast<std::uint8_t>(d.d1) ^ 0x80u) &&
                      ((m >> 16) & 0xffu) == (static_cast<std::uint8_t>(d.d0) ^ 0x80u) && (m >> 24) == 0;
    if (!same && wrong++ < 5) ADD_FAILURE() << "N = " << n << ": biased bytes " << std::hex << m;
  }
  EXPECT_EQ(wrong, 0);
}

// NormwiseFP32's rule: a row holds when 2^15 k / W <= sqrt(k) / 10, i.e. W >=
// 10 2^15 sqrt(k) (at k = 4096: W >= 20971520), or when it is all zeros.
TEST(Int8Digits, TheDigitsHoldRowsWhoseSpreadIsWithinSqrtKOverTen) {
  using numerics::int8_digits_hold_row;
  EXPECT_TRUE(int8_digits_hold_row(20971520u, 4096));
  EXPECT_FALSE(int8_digits_hold_row(20971519u, 4096));
  EXPECT_TRUE(int8_digits_hold_row(0u, 4096));  // no nonzero value: the digits are exact
  EXPECT_FALSE(int8_digits_hold_row(1u, 4096));
  // A row of k values all 2^23 when scaled: W = 2^15 k, R = 1: holds from k = 100.
  for (long long k : {99LL, 100LL, 1024LL, int8_slices_max_depth}) {
    const std::uint32_t w = static_cast<std::uint32_t>(k) * numerics::int8_row_weight(1 << 23);
    EXPECT_EQ(int8_digits_hold_row(w, k), k >= 100) << "k = " << k;
  }
  EXPECT_EQ(numerics::int8_row_weight(-int8_slices_max_scaled), numerics::int8_row_weight(int8_slices_max_scaled));
  EXPECT_EQ(numerics::int8_row_weight(255), 0u);
  EXPECT_EQ(numerics::int8_row_weight(-256), 1u);
}

// NormwiseFP32's cross rule (numerics/int8_cross_rule.hpp): each element's
// parts, the terms of a depth index, and the bound m n digits <= 0.2 pairs fp32.
TEST(Int8Digits, TheCrossRulesPartsAndBound) {
  using numerics::Int8CrossTerms;
  EXPECT_EQ(numerics::int8_column_square(3.0f), 9.0);
  EXPECT_EQ(numerics::int8_column_square(0x1.fffffep127f), 0x1.fffffc000002p255);  // exact in float64
  EXPECT_EQ(numerics::int8_column_square(0x1p-149f), 0x1p-298);
  EXPECT_EQ(numerics::int8_column_weight(-0.75f, 1), 4.0);      // 4^e for a nonzero element
  EXPECT_EQ(numerics::int8_column_weight(0x1p-149f, -148), 0x1p-296);
  EXPECT_EQ(numerics::int8_column_weight(0.0f, 5), 0.0);        // zeros are exact digits
  for (float special : {INFINITY, -INFINITY, NAN}) {           // recomputed apart: they count as zeros
    EXPECT_EQ(numerics::int8_column_square(special), 0.0);
    EXPECT_EQ(numerics::int8_column_weight(special, 3), 0.0);
    EXPECT_FALSE(numerics::int8_counts(special));
  }
  const Int8CrossTerms t = numerics::int8_cross_terms({2.0, 4.0, 3}, {5.0, 16.0, 7});
  EXPECT_EQ(t.digits, 4.0 * 5.0 + 2.0 * 16.0 + 4.0 * 16.0);
  EXPECT_EQ(t.fp32, 10.0);
  EXPECT_EQ(t.pairs, 21.0);
  // m n digits <= 0.2 pairs fp32, at and just past the bound (m n = 6, digits = 1: pairs fp32 >= 30).
  EXPECT_TRUE(numerics::int8_digits_hold_product(Int8CrossTerms{1.0, 3.0, 10.0}, 2, 3));
  EXPECT_FALSE(numerics::int8_digits_hold_product(Int8CrossTerms{1.0, 3.0, 9.99}, 2, 3));
  EXPECT_TRUE(numerics::int8_digits_hold_product(Int8CrossTerms{}, 64, 64));  // no nonzero product: exact
  EXPECT_FALSE(numerics::int8_digits_hold_product(Int8CrossTerms{1.0, 0.0, 0.0}, 1, 1));
}

TEST(Int8Digits, TheEntriesRulesParts) {
  EXPECT_EQ(numerics::int8_row_mass(3, 4), 48.0);
  EXPECT_EQ(numerics::int8_row_mass(0xFFFFFFFFu, -140), std::ldexp(4294967295.0, -140));  // exact
  EXPECT_TRUE(numerics::int8_row_carries_norm(2.0, 8.0));  // a quarter of the largest counts
  EXPECT_FALSE(numerics::int8_row_carries_norm(std::nextafter(2.0, 0.0), 8.0));
  EXPECT_TRUE(numerics::int8_row_carries_norm(8.0, 8.0));
  EXPECT_FALSE(numerics::int8_row_carries_norm(0.0, 0.0));  // a zero row carries nothing
  EXPECT_TRUE(numerics::int8_norm_spread_over_entries(8, 8));
  EXPECT_TRUE(numerics::int8_norm_spread_over_entries(64, 1));
  EXPECT_FALSE(numerics::int8_norm_spread_over_entries(7, 9));
  EXPECT_FALSE(numerics::int8_norm_spread_over_entries(0, 1000));
}

TEST(Int8Digits, TheRowExponentFillsTheDigitsWithoutOverflow) {
  std::mt19937 gen(static_cast<std::uint32_t>(test::fresh_seed()));
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> binade(-149, 127);
  for (int i = 0; i < 100000; ++i) {
    const float max = std::ldexp(mantissa(gen), binade(gen));
    if (!(max > 0.0f) || !std::isfinite(max)) continue;
    const int e = int8_row_exponent(max);
    const std::int32_t n = int8_scaled_integer(max, e);
    EXPECT_LE(n, int8_slices_max_scaled) << max;
    // No power of two wasted: one exponent lower would not fit (or would not bound the row).
    EXPECT_TRUE(std::ldexp(max, 23 - (e - 1)) > static_cast<float>(int8_slices_max_scaled) || max >= std::ldexp(1.0f, e - 1))
        << max;
    EXPECT_EQ(int8_scaled_integer(-max, e), -n);
  }
  EXPECT_EQ(int8_row_exponent(0.0f), 0);
  EXPECT_EQ(int8_row_exponent(std::numeric_limits<float>::infinity()), 0);
  EXPECT_EQ(int8_row_exponent(1.0f), 1);                 // 1 = 2^22 of 2^23: fits
  EXPECT_EQ(int8_row_exponent(0x1.fffffep-1f), 1);       // rounds to 2^23 at e = 0: one more power
  EXPECT_EQ(int8_row_exponent(0x1.fep-1f), 1);           // 0x7F8000 at e = 0: past the top digit
  EXPECT_EQ(int8_row_exponent(0x1.fcp-1f), 0);           // 0x7F0000 at e = 0: fits
  EXPECT_EQ(int8_scaled_integer(FLT_MAX, int8_row_exponent(FLT_MAX)), 0x400000);  // e = 129
  EXPECT_EQ(int8_scaled_integer(std::numeric_limits<float>::denorm_min(),
                                int8_row_exponent(std::numeric_limits<float>::denorm_min())),
            1 << 22);
  EXPECT_EQ(int8_scaled_integer(std::numeric_limits<float>::quiet_NaN(), 0), 0);
}

TEST(Int8Digits, TheCombineIsTheExactSumRoundedOnce) {
  // 2^(e - 30) (P0 2^16 + P1 2^8 + P2), each sum as large as 43648 values of k make it.
  const std::int64_t big = 3LL * 16384 * int8_slices_max_depth;
  EXPECT_EQ(int8_combine(1, 0, 0, 30 - 16), 1.0f);
  EXPECT_EQ(int8_combine(0, 0, 1, 30), 1.0f);
  EXPECT_EQ(int8_combine(big, -big, big, 0),
            static_cast<float>(std::ldexp(static_cast<double>(big * 65536 - big * 256 + big), -30)));
  // One rounding: 2^24 + 1 + 2^-8 would round to 2^24 if 2^24 + 1 were rounded first.
  EXPECT_EQ(int8_combine((1 << 24) + 1, 1, 0, 30 - 16), 0x1.000002p24f);
  EXPECT_EQ(int8_combine(1, 0, 0, 30 - 16 + 128), std::numeric_limits<float>::infinity());  // past FLT_MAX
  EXPECT_EQ(int8_combine(1, 0, 0, 30 - 16 - 149), std::numeric_limits<float>::denorm_min());  // a subnormal, exact
}

}  // namespace
}  // namespace egemm
