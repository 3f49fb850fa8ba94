// The host backend against the float64 reference, for every policy: all
// transposes, odd sizes, padded leading dimensions, alpha/beta, with fresh
// random inputs and a poisoned C. The bound is the a-priori one the policy's
// split and accumulation give (support/matrices.hpp), not a tuned constant.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <tuple>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/reference.hpp"
#include "support/gemm_check.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

template <class Policy>
class HostGemm : public ::testing::Test {};

TYPED_TEST_SUITE(HostGemm, test::AllPolicyTypes, test::PolicyNames);

TYPED_TEST(HostGemm, AllTransposesOddSizesPaddedLeadingDimensions) {
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'})
      for (index_t size : {1, 7, 33}) {
        test::GemmCase c{ta, tb, size, size + 2, size + 5, 1.0f, 0.0f, /*pad=*/3};
        test::check_host_gemm(TypeParam{}, c);
      }
}

TYPED_TEST(HostGemm, Size257AllTransposes) {
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) test::check_host_gemm(TypeParam{}, {ta, tb, 257, 257, 257, 1.0f, 0.0f, 0});
}

TYPED_TEST(HostGemm, AlphaBetaCombinations) {
  for (float alpha : {1.0f, -0.75f, 3.0f})
    for (float beta : {0.0f, 1.0f, -2.5f}) test::check_host_gemm(TypeParam{}, {'N', 'T', 19, 23, 40, alpha, beta, 1});
}

// Random extents (zero included), transposes, paddings, alpha and beta.
TYPED_TEST(HostGemm, RandomCases) {
  for (const test::GemmCase& c : test::random_cases(60, 70)) {
    test::check_host_gemm(TypeParam{}, c);
    if (::testing::Test::HasFailure()) return;
  }
}

// Host threads calling the host fallback at once (each call runs its own
// OpenMP team), each with its own shapes: no state is shared between calls.
TEST(HostGemmThreads, ThreadsCallingAtOnce) {
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([t] {
      for_each_policy([&](auto tag) {
        const index_t base = 40 + 23 * t;
        test::check_host_gemm(tag, {t % 2 ? 'T' : 'N', t / 2 ? 'T' : 'N', base + 5, base + 17, base + 2, 1.0f,
                                    0.5f * t, static_cast<index_t>(t % 3)});
      });
    });
  for (std::thread& w : workers) w.join();
}

TYPED_TEST(HostGemm, Size512Runs) { test::check_host_gemm(TypeParam{}, {'T', 'N', 512, 512, 512, 1.0f, 0.5f, 0}); }

}  // namespace
}  // namespace egemm
