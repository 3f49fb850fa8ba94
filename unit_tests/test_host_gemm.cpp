// The host backend against the float64 reference, for every policy: all
// transposes, odd sizes, padded leading dimensions, alpha/beta, with fresh
// random inputs and a poisoned C. The bound is the a-priori one the policy's
// split and accumulation give (support/matrices.hpp), not a tuned constant.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <thread>
#include <tuple>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/reference.hpp"
#include "support/matrices.hpp"
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

// A thin product (one row, one column, one entry) runs in narrower tiles
// than a square one, and gives the same entries bit for bit: each entry is
// its own sum in k order, whatever the tile.
TYPED_TEST(HostGemm, ThinProductsGiveTheSameBitsAsTheirSquareOne) {
  constexpr index_t m = 37, n = 29, k = 300, i = 5, j = 3;
  const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  test::Matrix c(m, n), row(1, n), column(m, 1), entry(1, 1);
  gemm(TypeParam{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
  gemm(TypeParam{}, 'N', 'N', 1, n, k, 1.0f, a.ptr() + i, m, b.ptr(), k, 0.0f, row.ptr(), 1);
  gemm(TypeParam{}, 'N', 'N', m, 1, k, 1.0f, a.ptr(), m, b.ptr() + j * k, k, 0.0f, column.ptr(), m);
  gemm(TypeParam{}, 'N', 'N', 1, 1, k, 1.0f, a.ptr() + i, m, b.ptr() + j * k, k, 0.0f, entry.ptr(), 1);
  for (index_t q = 0; q < n; ++q) EXPECT_EQ(row(0, q), c(i, q)) << "row " << i << ", column " << q;
  for (index_t p = 0; p < m; ++p) EXPECT_EQ(column(p, 0), c(p, j)) << "row " << p << ", column " << j;
  EXPECT_EQ(entry(0, 0), c(i, j));
}

// Normwise, EmulatedFP32 beats FP32 from modest depths up and is never far
// behind below: its split keeps 22 of FP32's 24 bits, so a very short sum
// (k of a few) lands further from the exact value than FP32's one or two
// roundings, while longer sums gain from its FP32 folds of exact-ish partial
// sums. Uniform [-1, 1] inputs, 256 x 256 x k; the table goes to the log (the
// numbers quoted in docs/numerics.md, section 6).
TEST(HostGemmAccuracy, ShallowSumsAgainstFP32Normwise) {
  constexpr index_t m = 256, n = 256;
  std::printf("| k | EmulatedFP32 rel. Frobenius | FP32 (NativeFP32) | ratio |\n|---:|---:|---:|---:|\n");
  for (index_t k : {1, 2, 4, 8, 16, 32, 64, 256, 1024}) {
    const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
    test::Matrix emulated(m, n), native(m, n);
    gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, emulated.ptr(), m);
    gemm(NativeFP32{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, native.ptr(), m);
    const GemmArgs g{Op::none, Op::none, m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, nullptr, m};
    std::vector<double> ref(static_cast<std::size_t>(m * n));
    reference::gemm_fp64(g, ref.data());
    const double e = reference::compare(emulated.ptr(), m, ref.data(), m, n).rel_frobenius;
    const double f = reference::compare(native.ptr(), m, ref.data(), m, n).rel_frobenius;
    std::printf("| %lld | %.3g | %.3g | %.2f |\n", static_cast<long long>(k), e, f, e / f);
    EXPECT_LT(e, 3.0 * f) << "k = " << k << ": EmulatedFP32 far behind FP32";
    if (k >= 32) EXPECT_LT(e, 0.8 * f) << "k = " << k << ": EmulatedFP32 no better than FP32";
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
