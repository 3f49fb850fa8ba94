// The software FP16 conversions against an independent oracle: the nearest
// entry of the sorted table of all finite halves (ties to the even encoding).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "egemm/numerics/half_bits.hpp"
#include "support/matrices.hpp"

namespace egemm::numerics {
namespace {

struct HalfTable {
  std::vector<std::pair<double, std::uint16_t>> finite;  // sorted by value, +0 only
  HalfTable() {
    for (std::uint32_t h = 0; h < 0x7c00u; ++h) finite.push_back({half_bits_to_float(static_cast<std::uint16_t>(h)), h});
    std::sort(finite.begin(), finite.end());
  }
  // Round-to-nearest-even of |x| (x >= 0), by search; overflow at 65520 as IEEE says.
  std::uint16_t nearest(double x) const {
    if (x >= 65520.0) return half_positive_infinity;
    auto hi = std::lower_bound(finite.begin(), finite.end(), std::make_pair(x, std::uint16_t{0}));
    if (hi == finite.end()) return half_max_finite;
    if (hi->first == x || hi == finite.begin()) return hi->second;
    auto lo = hi - 1;
    const double dlo = x - lo->first, dhi = hi->first - x;
    if (dlo < dhi) return lo->second;
    if (dhi < dlo) return hi->second;
    return (lo->second & 1u) ? hi->second : lo->second;
  }
  std::uint16_t toward_zero(double x) const {
    if (x >= 65504.0) return half_max_finite;
    auto it = std::upper_bound(finite.begin(), finite.end(), std::make_pair(x, std::uint16_t{0xffff}));
    return (it - 1)->second;
  }
};

const HalfTable& table() {
  static const HalfTable t;
  return t;
}

void expect_matches_oracle(float x) {
  const double ax = std::fabs(static_cast<double>(x));
  const std::uint16_t sign = std::signbit(x) ? 0x8000u : 0u;
  ASSERT_EQ(float_to_half_bits(x, HalfRounding::nearest_even), sign | table().nearest(ax)) << "x = " << x;
  ASSERT_EQ(float_to_half_bits(x, HalfRounding::toward_zero), sign | table().toward_zero(ax)) << "x = " << x;
}

TEST(HalfBits, EveryHalfRoundTripsThroughFloat) {
  for (std::uint32_t h = 0; h < 0x10000u; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    const float f = half_bits_to_float(bits);
    if (std::isnan(f)) {
      EXPECT_TRUE(((h >> 10) & 0x1fu) == 0x1fu && (h & 0x3ffu) != 0) << std::hex << h;
      continue;
    }
    EXPECT_EQ(float_to_half_bits(f, HalfRounding::nearest_even), bits) << std::hex << h;
    EXPECT_EQ(float_to_half_bits(f, HalfRounding::toward_zero), bits) << std::hex << h;
  }
}

TEST(HalfBits, HalfToFloatIsExactAgainstLdexp) {
  for (std::uint32_t h = 0; h < 0x7c00u; ++h) {
    const int e = static_cast<int>((h >> 10) & 0x1fu), m = static_cast<int>(h & 0x3ffu);
    const double expect = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    EXPECT_EQ(static_cast<double>(half_bits_to_float(static_cast<std::uint16_t>(h))), expect) << std::hex << h;
  }
}

TEST(HalfBits, MidpointsAndNeighboursRoundAsIEEE) {
  // Every midpoint between consecutive halves, and the floats just around it.
  const auto& t = table().finite;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    const float mid = static_cast<float>((t[i].first + t[i + 1].first) / 2);  // exact in float
    for (float x : {mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e9f)}) {
      expect_matches_oracle(x);
      expect_matches_oracle(-x);
    }
  }
}

TEST(HalfBits, RandomFloatsAcrossTheRangeMatchTheOracle) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<std::uint32_t> bits(0x30000000u, 0x47ffffffu);  // 2^-31 .. 2^16
  for (int i = 0; i < 2000000; ++i) expect_matches_oracle(bits_to_float(bits(gen) | (i & 1u) << 31));
}

TEST(HalfBits, SpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(float_to_half_bits(inf, HalfRounding::nearest_even), 0x7c00u);
  EXPECT_EQ(float_to_half_bits(-inf, HalfRounding::toward_zero), 0xfc00u);
  EXPECT_TRUE(std::isnan(round_to_half(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(float_to_half_bits(65519.996f, HalfRounding::nearest_even), 0x7bffu);
  EXPECT_EQ(float_to_half_bits(65520.0f, HalfRounding::nearest_even), 0x7c00u);
  EXPECT_EQ(float_to_half_bits(1e30f, HalfRounding::toward_zero), 0x7bffu);
  EXPECT_EQ(float_to_half_bits(0x1p-25f, HalfRounding::nearest_even), 0x0000u);  // tie to even (zero)
  EXPECT_EQ(float_to_half_bits(0x1.000002p-25f, HalfRounding::nearest_even), 0x0001u);
  EXPECT_EQ(float_to_half_bits(-0.0f, HalfRounding::nearest_even), 0x8000u);
}

}  // namespace
}  // namespace egemm::numerics
