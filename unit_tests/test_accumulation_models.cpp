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
  for (const Model& m : models) EXPECT_EQ(m.predict(0.5f, {1.0, 0.25}), 1.75f) << m.name;
}

}  // namespace
}  // namespace egemm::profile
