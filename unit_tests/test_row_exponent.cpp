// EmulatedFP32's row exponent (numerics/row_exponent.hpp): guessed from a
// row's first values, kept only where it holds the whole row as well as the
// exact range exponent would, and kept on ordinary data (else the GPU splits
// those rows twice).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "egemm/numerics/row_exponent.hpp"
#include "egemm/path_selection.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using numerics::exponent_holds_row;
using numerics::guessed_exponent;
using numerics::range_exponent;
using numerics::row_exponent;

TEST(RowExponent, TheGuessLeavesItsHeadroomAboveThePrefix) {
  EXPECT_EQ(guessed_exponent(1.0f), range_exponent(1.0f) + numerics::exponent_guess_headroom);
  EXPECT_EQ(guessed_exponent(0.0f), guessed_exponent(0.5f));  // an all-zero prefix guesses order one
  EXPECT_EQ(guessed_exponent(0x1p-140f), range_exponent(0x1p-140f) + numerics::exponent_guess_headroom);
}

TEST(RowExponent, TheGuessHoldsARowOnlyWhileItsPiecesStayInFp16Range) {
  const int g = guessed_exponent(1.0f);  // scales 1.0 to 2^11: room up to 2^15 above, 2^-14 below
  EXPECT_TRUE(exponent_holds_row(g, 0x1.fffffep3f, 0x1p-25f));
  EXPECT_FALSE(exponent_holds_row(g, 0x1p4f, 1.0f));    // 16 * 2^11 = 2^15: past FP16's top binade
  EXPECT_FALSE(exponent_holds_row(g, 1.0f, 0x1.fffffep-26f));  // below 2^-14 once scaled
  EXPECT_FALSE(exponent_holds_row(g, 0x1.fffffep-1f, 0.5f));  // 2^11 - 1 ulp: too far below the top
  EXPECT_TRUE(exponent_holds_row(g, 0.0f, 0.0f));      // an all-zero row
  EXPECT_EQ(row_exponent(g, 8.0f, 0x1p-20f), g);
  EXPECT_EQ(row_exponent(g, 16.0f, 1.0f), range_exponent(16.0f));
  EXPECT_EQ(row_exponent(g, 1.0f, 0x1p-26f), range_exponent(1.0f));
}

TEST(RowExponent, FitsFp16ScaledIsTheExactExponentHoldingTheRow) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> exp(-149, 127);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  for (int i = 0; i < 100000; ++i) {
    float a = std::ldexp(mant(gen), exp(gen)), b = std::ldexp(mant(gen), exp(gen));
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0.0f || b == 0.0f) continue;
    const RowRange r{std::max(a, b), std::min(a, b)};
    // The definition by the exact exponent alone: the smallest, scaled by it, an FP16 normal.
    const bool normal = numerics::scale_by_pow2(r.min_abs_nonzero, -range_exponent(r.max_abs)) >= 0x1p-14f;
    ASSERT_EQ(fits_fp16_scaled(r), normal) << r.max_abs << " " << r.min_abs_nonzero;
  }
}

// Every row, whatever its values: the exponent chosen is the guess or the
// exact one, the row's maximum lands in [2^11, 2^15), and a kept guess keeps
// every nonzero element's hi an FP16 normal. Rows of every scale and spread,
// some with a zero prefix or a late outlier, so both outcomes occur.
TEST(RowExponent, EveryRowLandsInFp16RangeWithItsExponent) {
  const index_t rows = 600, depth = 200;
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> centre(-100, 100), spread(0, 32), kind(0, 3);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::vector<float> v(static_cast<std::size_t>(rows * depth));
  for (index_t r = 0; r < rows; ++r) {
    const int c = centre(gen), w = spread(gen), how = kind(gen);
    std::uniform_int_distribution<int> e(c - w, c);
    for (index_t p = 0; p < depth; ++p) v[r * depth + p] = (p % 3 ? 1.0f : -1.0f) * std::ldexp(mant(gen), e(gen));
    if (how == 1) std::fill_n(v.begin() + r * depth, numerics::exponent_guess_values, 0.0f);  // zero prefix
    if (how == 2) v[r * depth + depth - 1] = std::ldexp(1.5f, c + 5);                          // late outlier
  }
  const OperandRows op{v.data(), rows, depth, depth, 1};
  int guesses = 0, exact = 0;
  for (index_t r = 0; r < rows; ++r) {
    const RowRange range = row_range(op, r);
    const int e = emulated_fp32_row_exponent(op, r), g = emulated_fp32_guessed_exponent(op, r);
    const bool kept = exponent_holds_row(g, range.max_abs, range.min_abs_nonzero);
    ASSERT_EQ(e, kept ? g : range_exponent(range.max_abs)) << "row " << r;
    const float scaled_max = numerics::scale_by_pow2(range.max_abs, -e);
    EXPECT_LT(scaled_max, 0x1p15f) << "row " << r;
    EXPECT_GE(scaled_max, 0x1p11f) << "row " << r;
    if (kept) EXPECT_GE(numerics::scale_by_pow2(range.min_abs_nonzero, -e), 0x1p-14f) << "row " << r;
    (kept ? guesses : exact) += 1;
  }
  std::printf("[ row exponent ] %d rows kept their guess, %d took the exact exponent\n", guesses, exact);
  EXPECT_GT(guesses, 0);
  EXPECT_GT(exact, 0);
}

// The point of guessing: on ordinary data almost every row keeps its guess,
// so the GPU reads the operand once. Uniform [-1, 1] and Gaussian rows of 8192.
TEST(RowExponent, OrdinaryRowsKeepTheirGuess) {
  const index_t rows = 256, depth = 8192;
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::normal_distribution<float> gaussian(0.0f, 3.0f);
  for (bool normal : {false, true}) {
    std::vector<float> v(static_cast<std::size_t>(rows * depth));
    for (float& x : v) x = normal ? gaussian(gen) : uniform(gen);
    const OperandRows op{v.data(), rows, depth, depth, 1};
    int missed = 0;
    for (index_t r = 0; r < rows; ++r) {
      missed += emulated_fp32_row_exponent(op, r) != emulated_fp32_guessed_exponent(op, r);
    }
    EXPECT_LE(missed, 2) << (normal ? "Gaussian" : "uniform") << " rows re-split";
  }
}

}  // namespace
}  // namespace egemm
