// The split of one value into FP16 pieces: exactness of hi + lo, the extra
// bit of round-split (the sign of lo), the 2^11 scaling of lo, the row scale.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "egemm/numerics/split.hpp"
#include "support/matrices.hpp"

namespace egemm::numerics {
namespace {

struct Reconstructed {
  double hi, lo;
};
Reconstructed pieces(float x, SplitRule rule) {
  const HalfPieces p = split_to_half(x, rule);
  double lo = half_bits_to_float(p.lo);
  if (rule == SplitRule::round_scaled_lo) lo = std::ldexp(lo, -11);
  return {half_bits_to_float(p.hi), lo};
}

// |x - (hi + lo)| <= 2^bits_log2 |x| for x whose pieces are FP16-normal.
void expect_reconstructs(SplitRule rule, int bits_log2, float lo_min, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> exp(-2, 14);
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const float x = (i & 1 ? -1.0f : 1.0f) * std::ldexp(mant(gen), exp(gen));
    if (std::fabs(x) < lo_min) continue;
    const Reconstructed r = pieces(x, rule);
    worst = std::max(worst, std::fabs(x - (r.hi + r.lo)) / std::fabs(x));
  }
  EXPECT_LE(worst, std::ldexp(1.0, bits_log2));
  EXPECT_GT(worst, std::ldexp(1.0, bits_log2 - 2)) << "the bound is far from attained: is the split what we think?";
}

TEST(Split, RoundSplitCarries22Bits) { expect_reconstructs(SplitRule::round, -22, 0.125f, test::fresh_seed()); }
TEST(Split, TruncateSplitCarries21Bits) { expect_reconstructs(SplitRule::truncate, -21, 0.125f, test::fresh_seed()); }
TEST(Split, ScaledSplitCarries22BitsDownToFp16Normals) {
  expect_reconstructs(SplitRule::round_scaled_lo, -22, 0x1p-14f, test::fresh_seed());
}

TEST(Split, RoundSplitUsesTheSignOfLoAsAnExtraBit) {
  // For positive x the truncated hi leaves lo >= 0; rounding hi up makes lo
  // negative: the sign bit of lo carries information (the paper's Figure 4b).
  int negative_lo = 0;
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_real_distribution<float> u(0.5f, 1.0f);
  for (int i = 0; i < 10000; ++i) {
    const float x = u(gen);
    EXPECT_GE(pieces(x, SplitRule::truncate).lo, 0.0) << x;
    const Reconstructed r = pieces(x, SplitRule::round);
    EXPECT_LE(std::fabs(r.lo), std::ldexp(std::fabs(r.hi), -11)) << x;  // |lo| <= half an FP16 ulp of hi
    negative_lo += r.lo < 0.0;
  }
  EXPECT_GT(negative_lo, 3000);
  EXPECT_LT(negative_lo, 7000);
}

TEST(Split, ExactlyRepresentableValuesHaveZeroLo) {
  for (float x : {1.0f, -0.5f, 1024.0f, 0x1.ffcp15f, 0x1p-14f, 0x1p-24f}) {
    for (SplitRule rule : {SplitRule::round, SplitRule::truncate, SplitRule::round_scaled_lo}) {
      const Reconstructed r = pieces(x, rule);
      EXPECT_EQ(r.hi, x);
      EXPECT_EQ(r.lo, 0.0);
    }
  }
}

TEST(Split, UnscaledLoLosesBitsBelowTwoToMinusThreeScaledLoDoesNot) {
  // x = 2^-10 (1 + 2^-20): the lo part 2^-30 is below FP16's subnormals.
  const float x = std::ldexp(1.0f + 0x1p-20f, -10);
  EXPECT_EQ(pieces(x, SplitRule::round).lo, 0.0);
  EXPECT_EQ(pieces(x, SplitRule::round_scaled_lo).lo, std::ldexp(1.0, -30));
}

TEST(Split, NonFiniteValuesKeepHiAndZeroLo) {
  const float inf = std::numeric_limits<float>::infinity();
  for (SplitRule rule : {SplitRule::round, SplitRule::truncate, SplitRule::round_scaled_lo}) {
    EXPECT_EQ(split_to_half(inf, rule).hi, 0x7c00u);
    EXPECT_EQ(split_to_half(inf, rule).lo, 0u);
    EXPECT_EQ(split_to_half(-inf, rule).hi, 0xfc00u);
    EXPECT_TRUE(std::isnan(half_bits_to_float(split_to_half(std::nanf(""), rule).hi)));
  }
  EXPECT_EQ(split_to_half(1e6f, SplitRule::round).hi, 0x7c00u);  // beyond FP16: the tag's documented limit
}

TEST(Split, RangeExponentBringsTheRowMaximumIntoTwoTo14) {
  for (float mx : {1.0f, 0.75f, 65504.0f, 3e38f, 1e-30f, 1e-44f, 0x1p14f, 0x1.fffffep14f}) {
    const int e = range_exponent(mx);
    const float scaled = scale_by_pow2(mx, -e);
    EXPECT_GE(scaled, 0x1p14f) << mx;
    EXPECT_LT(scaled, 0x1p15f) << mx;
  }
  EXPECT_EQ(range_exponent(0.0f), 0);
  EXPECT_EQ(range_exponent(std::numeric_limits<float>::infinity()), 0);
}

}  // namespace
}  // namespace egemm::numerics
