// Products and sums beyond FP32's range, and subnormal products: every tag
// that promises FP32's range behaviour gives +-Inf, NaN and finite entries
// where FP32 gemm does, on every path (scaled FP16 pieces with float64 wide
// rows, TF32 pieces, INT8 digits, native FP32) and transpose.
#include <gtest/gtest.h>

#include <string>

#include "egemm/path_selection.hpp"
#include "support/gemm_check.hpp"
#include "support/overflow_cases.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

template <class Policy>
class Overflow : public ::testing::Test {};
TYPED_TEST_SUITE(Overflow, test::AllPolicyTypes, test::PolicyNames);

// The path the call takes, for the failure messages.
std::string path_of(PolicyId policy, const GemmArgs& g) {
  return policy_name(test::effective_policy(policy, g));
}

// 70 x 50 x 300: several host tiles and k-steps. `wide` sends EmulatedFP32
// to the TF32 path (asserted); otherwise it takes the scaled FP16 path (the
// one wide row and column of product_overflows recomputed in float64) or,
// with two wide rows, TF32. NormwiseFP32 takes the digits where every row's
// mean magnitude is near its largest (the cases drawn from narrow ranges)
// and EmulatedFP32's path elsewhere (the uniform ones, wide or not).
template <class Policy>
void check_every_case(bool wide) {
  if (!test::promises_fp32_range<Policy>())
    GTEST_SKIP() << "an FP16-range baseline: inputs up to 65504, overflow as documented";
  constexpr PolicyId id = policy_traits<Policy>::id;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      const std::uint64_t seed = test::fresh_seed();
      for (test::OverflowCase& x : test::overflow_cases(ta, tb, 70, 50, 300, wide, seed)) {
        const GemmArgs g = x.args();
        SCOPED_TRACE(x.name + " " + ta + tb + (wide ? " wide" : "") + ", runs " + path_of(id, g) + ", seed " +
                     std::to_string(seed));
        if (wide && id == PolicyId::emulated_fp32) {
          ASSERT_EQ(test::effective_policy(id, g), PolicyId::full_range_tf32x3);
        }
        std::vector<float> c = x.c.data;
        test::run_on_host(Policy{}, g, c.data());
        test::check_fp32_behaviour(id, x, c);
      }
    }
}

TYPED_TEST(Overflow, EntriesAreInfNanOrFiniteAsInFp32Gemm) {
  check_every_case<TypeParam>(false);
}

TYPED_TEST(Overflow, EntriesAreInfNanOrFiniteAsInFp32GemmWithWideRows) {
  check_every_case<TypeParam>(true);
}

}  // namespace
}  // namespace egemm
