// The traits are the single description of each tag; check they are coherent.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "egemm/policy.hpp"

namespace egemm {
namespace {

static_assert(is_policy_v<EmulatedFP32> && is_policy_v<const NativeFP32&>);
static_assert(!is_policy_v<int> && !is_policy_v<float>);
static_assert(std::is_empty_v<EmulatedFP32> && std::is_empty_v<RoundSplit4>, "tags carry nothing at run time");

#if defined(EGEMM_TEST_ROUTABLE_TAGS)
// EGEMM_KOKKOS_GEMM_TPL's list (cmake/EGEMMKokkos.cmake) is every emulated tag:
// a tag added to all_policies and not to the list could not be routed.
TEST(PolicyTraits, EveryEmulatedTagCanRouteTheStockKokkosGemm) {
  std::set<std::string> routable, emulated;
  std::string list = EGEMM_TEST_ROUTABLE_TAGS;
  for (std::size_t start = 0, comma; start <= list.size(); start = comma + 1) {
    comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    routable.insert(list.substr(start, comma - start));
  }
  for_each_policy([&](auto tag) {
    using t = policy_traits<decltype(tag)>;
    if (t::emulated) emulated.insert(t::name);
  });
  EXPECT_EQ(routable, emulated) << "cmake/EGEMMKokkos.cmake's EGEMM_ROUTABLE_TAGS: " << list;
}
#endif

TEST(PolicyTraits, EveryPolicyIsDescribedConsistently) {
  std::set<int> ids;
  std::set<std::string> names;
  int count = 0;
  for_each_policy([&](auto tag) {
    using t = policy_traits<decltype(tag)>;
    ++count;
    ids.insert(static_cast<int>(t::id));
    names.insert(t::name);
    EXPECT_STREQ(policy_name(t::id), t::name);
    EXPECT_GE(t::products, 1);
    EXPECT_LE(t::products, t::pieces_per_operand * t::pieces_per_operand) << t::name;
    for (const ProductTerm& term : t::terms) {
      if (t::integer_sums)  // Int8Slices: sum s holds the digit products of weight 2^(-8 s)
        EXPECT_EQ(term.accumulator, static_cast<int>(term.a) + static_cast<int>(term.b)) << t::name;
      else
        EXPECT_TRUE(term.accumulator == 0 || term.accumulator == 1) << t::name;
      EXPECT_LT(static_cast<int>(term.a), t::pieces_per_operand) << t::name;
      EXPECT_LT(static_cast<int>(term.b), t::pieces_per_operand) << t::name;
    }
    EXPECT_EQ(t::pieces_per_operand == 2, t::split == SplitRule::round || t::split == SplitRule::truncate ||
                                              t::split == SplitRule::round_scaled_lo || t::split == SplitRule::tf32)
        << t::name;
    EXPECT_EQ(t::pieces_per_operand == 3, t::split == SplitRule::int8_digits) << t::name;
    EXPECT_EQ(t::integer_sums, t::split == SplitRule::int8_digits) << t::name;
    EXPECT_EQ(t::lo_scale_log2 != 0, t::split == SplitRule::round_scaled_lo) << t::name;
  });
  EXPECT_EQ(count, static_cast<int>(std::tuple_size_v<all_policies>));
  EXPECT_EQ(ids.size(), static_cast<std::size_t>(count));
  EXPECT_EQ(names.size(), static_cast<std::size_t>(count));
}

TEST(PolicyTraits, TheDefaultUsesThreeProductsAndTheFullExponentRange) {
  using t = policy_traits<EmulatedFP32>;
  EXPECT_EQ(t::products, 3);
  EXPECT_TRUE(t::scales_rows_and_columns);
  EXPECT_TRUE(t::fold_main_each_k_step);
  EXPECT_EQ(t::terms[0].a, Piece::hi);
  EXPECT_EQ(t::terms[0].b, Piece::hi);
  EXPECT_EQ(policy_traits<RoundSplit4>::products, 4);
  EXPECT_EQ(policy_traits<RoundSplit4>::max_abs_input, 65504.0f);
}

// Int8Slices keeps every digit pair of weight 2^-16 and above, once each.
TEST(PolicyTraits, Int8SlicesKeepsTheDigitProductsOfWeightUpTo2) {
  using t = policy_traits<Int8Slices>;
  int per_weight[3] = {0, 0, 0};
  for (const ProductTerm& term : t::terms) ++per_weight[term.accumulator];
  EXPECT_EQ(per_weight[0], 1);
  EXPECT_EQ(per_weight[1], 2);
  EXPECT_EQ(per_weight[2], 3);
  // Three products of two digits of at most 2^7 in magnitude (2^14) for each value of k fit an int32.
  EXPECT_LE(3.0 * 16384.0 * static_cast<double>(int8_slices_max_depth), 2147483647.0);
  EXPECT_GT(3.0 * 16384.0 * static_cast<double>(int8_slices_max_depth + 128), 2147483647.0);
  EXPECT_EQ(int8_slices_max_depth % 128, 0) << "whole 128-value k-tiles";
}

}  // namespace
}  // namespace egemm
