// The CPU models the precision profiler compares tensor-core results with
// (perf_tests/precision_profile): each on hand-computed cases that tell it
// apart from the others.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "accumulation_models.hpp"

namespace egemm::profile {
namespace {

TEST(AccumulationModels, RoundTowardZero) {
  EXPECT_EQ(to_float_rz(1.0 + 0x1p-30), 1.0f);
  EXPECT_EQ(to_float_rz(-(1.0 + 0x1p-30)), -1.0f);
  EXPECT_EQ(to_float_rz(1.0 + 0x1p-23), 1.0f + 0x1p-23f);
  EXPECT_EQ(to_float_rz(0x1.fffffffp0), 0x1.fffffep0f);
}

TEST(AccumulationModels, SequentialRoundingDiffersFromTruncation) {
  // 1 + 1.5 * 2^-24: nearest is 1 + 2^-23, toward zero is 1.
  EXPECT_EQ(sequential_fp32(1.0f, {0x1.8p-24}, false), 1.0f + 0x1p-23f);
  EXPECT_EQ(sequential_fp32(1.0f, {0x1.8p-24}, true), 1.0f);
  // Two half-ulps: each add ties to even and is lost; the exact sum keeps them.
  EXPECT_EQ(sequential_fp32(1.0f, {0x1p-24, 0x1p-24}, false), 1.0f);
  EXPECT_EQ(exact_sum_rn({1.0, 0x1p-24, 0x1p-24}), 1.0f + 0x1p-23f);
}

TEST(AccumulationModels, AlignmentKeepsOnlyTheGuardBitsItHas) {
  const std::vector<double> two_half_ulps = {0x1p-24, 0x1p-24};
  EXPECT_EQ(aligned_truncated_sum(1.0f, two_half_ulps, 0), 1.0f);              // both truncated away
  EXPECT_EQ(aligned_truncated_sum(1.0f, two_half_ulps, 1), 1.0f + 0x1p-23f);   // one guard bit keeps them
  EXPECT_EQ(aligned_truncated_sum(0.0f, {3.0, -0x1p-30}, 0), 3.0f);  // the small term is shifted out entirely
  EXPECT_EQ(aligned_truncated_sum(0.0f, {0.0, 0.0}, 2), 0.0f);
}

TEST(AccumulationModels, ScaledModelAnchorsAtTheOperandExponents) {
  // 1.5 * 1.5 = 2.25 at scale 2^0 (significand >= 2, leading bit at 2^1): the
  // quantum is 2^(0-25), as for "aligned, 3 extra bits" (anchored at 2^1);
  // "aligned, 2 extra bits" (quantum 2^-24) drops the small term.
  const std::vector<double> wide = {2.25, -0x1.8p-25};
  EXPECT_EQ(scaled_truncated_sum(0.0f, wide, {0, -25}), 2.25f - 0x1p-22f);
  EXPECT_EQ(aligned_truncated_sum(0.0f, wide, 3), 2.25f - 0x1p-22f);
  EXPECT_EQ(aligned_truncated_sum(0.0f, wide, 2), 2.25f);
  // 1.5 at scale 2^0 (significand < 2): the quantum is still 2^-25, as for
  // "aligned, 2 extra bits"; 3 extra bits (2^-26) keep 2^-26 and RZ moves down.
  const std::vector<double> narrow = {1.5, -0x1.8p-26};
  EXPECT_EQ(scaled_truncated_sum(0.0f, narrow, {0, -26}), 1.5f);
  EXPECT_EQ(aligned_truncated_sum(0.0f, narrow, 2), 1.5f);
  EXPECT_EQ(aligned_truncated_sum(0.0f, narrow, 3), 1.5f - 0x1p-23f);
  // c competes for the anchor with its own exponent: c = 2 (scale 1) over a
  // product 1.5 * 1 (scale 0) sets the quantum to 2^-24.
  EXPECT_EQ(scaled_truncated_sum(2.0f, {1.5, -0x1.8p-25}, {0, -25}), 3.5f);             // -1.5*2^-25 -> 0
  EXPECT_EQ(aligned_truncated_sum(2.0f, {1.5, -0x1.8p-25}, 3), 3.5f - 0x1p-22f);  // quantum 2^-25: -2^-25 kept
  EXPECT_EQ(scaled_truncated_sum(0.0f, {0.0, 0.0}, {0, 0}), 0.0f);
  EXPECT_EQ(scaled_truncated_sum(-3.0f, {0.0}, {0}), -3.0f);
}

TEST(AccumulationModels, HalfArithmeticRoundsEveryStepToFp16) {
  // 2048 + 1 is a tie in FP16 (spacing 2 there): even, 2048. FP32 keeps 2049.
  EXPECT_EQ(half_arithmetic(0.0f, {2048.0, 1.0}), 2048.0f);
  EXPECT_EQ(sequential_fp32(0.0f, {2048.0, 1.0}, false), 2049.0f);
}

TEST(AccumulationModels, AgreeingBits) {
  EXPECT_EQ(agreeing_bits(1.0f, 1.0), 24.0);
  EXPECT_NEAR(agreeing_bits(1.0f, 1.0 + 0x1p-10), 10.0, 0.01);
  EXPECT_EQ(agreeing_bits(NAN, 1.0), 0.0);
}

TEST(AccumulationModels, EveryModelIsListedOnce) {
  const std::vector<Model> models = all_models();
  EXPECT_GE(models.size(), 8u);
  for (std::size_t i = 0; i < models.size(); ++i)
    for (std::size_t j = i + 1; j < models.size(); ++j) EXPECT_NE(models[i].name, models[j].name);
  // On a sum every model computes exactly, they all agree.
  for (const Model& m : models) EXPECT_EQ(m.predict(0.5f, {1.0, 0.25}, {0, -2}), 1.75f) << m.name;
}

}  // namespace
}  // namespace egemm::profile
