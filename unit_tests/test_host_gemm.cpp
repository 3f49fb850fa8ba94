// The host backend against the float64 reference, for every policy: all
// transposes, odd sizes, padded leading dimensions, alpha/beta, with fresh
// random inputs and a poisoned C. The bound is the a-priori one the policy's
// split and accumulation give (support/matrices.hpp), not a tuned constant.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>
#include <tuple>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"
#include "egemm/path_selection.hpp"
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

// One row of op(A) (column of op(B)) in a policy's pieces, as the tags'
// comments (egemm/policy.hpp) describe them: EmulatedFP32's row scaled by 2^-e first (its row
// exponent), then split by the policy's rule (lo stays 0 for Half).
struct DocumentedPieces {
  std::vector<float> hi, lo;
  int exponent = 0;
};
DocumentedPieces documented_pieces(PolicyId policy, const OperandRows& rows, index_t r) {
  DocumentedPieces out;
  if (policy == PolicyId::emulated_fp32) out.exponent = emulated_fp32_row_exponent(rows, r);
  for (index_t p = 0; p < rows.depth; ++p) {
    const float x = std::ldexp(rows(r, p), -out.exponent);
    float hi = 0.0f, lo = 0.0f;
    if (policy == PolicyId::full_range_tf32x3) {
      const numerics::Tf32Pieces t = numerics::split_to_tf32(x);
      hi = t.big;
      lo = t.small;
    } else {
      const SplitRule rule = policy == PolicyId::emulated_fp32   ? SplitRule::round_scaled_lo
                             : policy == PolicyId::round_split4  ? SplitRule::round
                             : policy == PolicyId::truncate_split4 ? SplitRule::truncate
                                                                   : SplitRule::round_hi_only;
      const numerics::HalfPieces h = numerics::split_to_half(x, rule);
      hi = numerics::half_bits_to_float(h.hi);
      lo = rule == SplitRule::round_hi_only ? 0.0f : numerics::half_bits_to_float(h.lo);
    }
    out.hi.push_back(hi);
    out.lo.push_back(lo);
  }
  return out;
}

// alpha * (the entry's sum) + beta * c in the documented order of operations:
// k in steps of 16 (one m16n8k16 step); within a step each product term in
// turn, every product accumulated with an FP32 round-to-nearest add in k
// order: RoundSplit4 and TruncateSplit4 lo*lo, lo*hi, hi*lo, hi*hi into one
// accumulator, Half hi*hi; EmulatedFP32 and FullRangeTF32x3 the step's hi*hi
// sum formed exactly and folded into FP32 with one RN add, hi*lo then lo*hi
// in a correction accumulator added back (times 2^-11 for EmulatedFP32's
// scaled lo) at the end; then the row and column scaling undone. Products of
// pieces are exact in FP32, so the order alone fixes every bit.
float documented_entry(PolicyId policy, const DocumentedPieces& a, const DocumentedPieces& b, float alpha, float beta,
                       float c) {
  const index_t k = static_cast<index_t>(a.hi.size());
  const bool folded = policy == PolicyId::emulated_fp32 || policy == PolicyId::full_range_tf32x3;
  const bool four = policy == PolicyId::round_split4 || policy == PolicyId::truncate_split4;
  float main = 0.0f, correction = 0.0f;
  for (index_t k0 = 0; k0 < k; k0 += 16) {
    const index_t end = std::min<index_t>(k, k0 + 16);
    const auto add = [&](float& acc, const std::vector<float>& x, const std::vector<float>& y) {
      for (index_t p = k0; p < end; ++p) acc += x[p] * y[p];
    };
    if (folded) {
      double exact = 0.0;
      for (index_t p = k0; p < end; ++p) exact += static_cast<double>(a.hi[p]) * static_cast<double>(b.hi[p]);
      main += static_cast<float>(exact);
      add(correction, a.hi, b.lo);
      add(correction, a.lo, b.hi);
    } else if (four) {
      add(main, a.lo, b.lo);
      add(main, a.lo, b.hi);
      add(main, a.hi, b.lo);
      add(main, a.hi, b.hi);
    } else {
      add(main, a.hi, b.hi);
    }
  }
  float v = main + std::ldexp(correction, policy == PolicyId::emulated_fp32 ? -11 : 0);
  v = std::ldexp(v, a.exponent + b.exponent);
  return beta == 0.0f ? alpha * v : std::fmaf(alpha, v, beta * c);
}

// Int8Slices' entry as its policy comment states it, from the scaled
// integers N rather than the oracle's three sums: sum_p (N_a N_b minus the
// dropped digit products d1 d2' + d2 d1' (times 2^8) and d2 d2') exactly (a
// 128-bit integer), times 2^(ea + eb - 46), rounded once to FP32.
float documented_int8_entry(const OperandRows& a, index_t i, const OperandRows& b, index_t j, float alpha, float beta,
                            float c) {
  const auto exponent = [](const OperandRows& rows, index_t r) {
    return numerics::int8_row_exponent(row_range(rows, r).max_abs);
  };
  const int ea = exponent(a, i), eb = exponent(b, j);
  __int128 sum = 0;
  for (index_t p = 0; p < a.depth; ++p) {
    const std::int64_t na = numerics::int8_scaled_integer(a(i, p), ea), nb = numerics::int8_scaled_integer(b(j, p), eb);
    const numerics::Int8Digits da = numerics::int8_digits_of(static_cast<std::int32_t>(na)),
                               db = numerics::int8_digits_of(static_cast<std::int32_t>(nb));
    EXPECT_EQ(na, da.d0 * 65536 + da.d1 * 256 + da.d2);
    sum += na * nb - (da.d1 * db.d2 + da.d2 * db.d1) * 256 - da.d2 * db.d2;
  }
  // Below 2^63 for the deepest sums: exact in a long double (64 significant bits or more), one rounding to float.
  const float v = static_cast<float>(std::ldexp(static_cast<long double>(sum), ea + eb - 46));
  return beta == 0.0f ? alpha * v : std::fmaf(alpha, v, beta * c);
}

// The host backend is the oracle the device kernels are checked against: every
// entry must be its policy's documented sum (above) bit for bit, whatever the
// transposes, in tiles with row and column tails (13 x 11 against 4 x 8
// tiles) and a k-step tail (45 = 2 x 16 + 13). NativeFP32's products round, so
// whether its multiply-adds fuse is the compiler's choice: the bound tests
// cover it.
TEST(HostGemmOrder, EveryEntryIsItsPolicysDocumentedSumBitForBit) {
  for_each_policy([](auto tag) {
    const PolicyId policy = policy_traits<decltype(tag)>::id;
    if (policy == PolicyId::native_fp32) return;
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'})
        for (float beta : {0.0f, -2.5f}) {
          const test::GemmCase c{ta, tb, 13, 11, 45, -0.75f, beta, /*pad=*/2};
          const std::uint64_t seed = test::fresh_seed();
          SCOPED_TRACE(::testing::Message() << policy_name(policy) << " " << ta << tb << " beta " << beta << " seed "
                                            << seed);
          test::GemmInputs in = test::make_inputs(c, seed);
          const PolicyId runs = test::effective_policy(policy, in.args);  // NormwiseFP32: EmulatedFP32 at this k
          if (policy == PolicyId::emulated_fp32 || policy == PolicyId::normwise_fp32) ASSERT_EQ(runs, PolicyId::emulated_fp32);
          std::vector<DocumentedPieces> a_rows, b_cols;
          const bool integer = runs == PolicyId::int8_slices;
          for (index_t i = 0; i < c.m && !integer; ++i) a_rows.push_back(documented_pieces(runs, in.args.a_rows(), i));
          for (index_t j = 0; j < c.n && !integer; ++j) b_cols.push_back(documented_pieces(runs, in.args.b_cols(), j));
          std::vector<float> want(static_cast<std::size_t>(c.m * c.n));
          for (index_t j = 0; j < c.n; ++j)
            for (index_t i = 0; i < c.m; ++i)
              want[i + j * c.m] =
                  integer ? documented_int8_entry(in.args.a_rows(), i, in.args.b_cols(), j, c.alpha, beta, in.c(i, j))
                          : documented_entry(runs, a_rows[i], b_cols[j], c.alpha, beta, in.c(i, j));
          if (beta == 0.0f) test::poison(in.c);
          test::run_on_host(tag, in.args, in.c.ptr());
          int differ = 0;
          for (index_t j = 0; j < c.n; ++j)
            for (index_t i = 0; i < c.m; ++i)
              if (!(in.c(i, j) == want[i + j * c.m]) && differ++ < 3)
                ADD_FAILURE() << "C(" << i << "," << j << ") = " << in.c(i, j) << ", documented order gives "
                              << want[i + j * c.m];
          ASSERT_EQ(differ, 0) << differ << " of " << c.m * c.n << " entries differ";
        }
  });
}

// Int8Slices at the deepest k an int32 sum holds, every element the digits
// (-126, -128, -128) (the largest sums: (128^2 + 2 126 128) k for P2): the
// documented 128-bit sum, so no int32 wrapped. One value of k deeper, the
// call is EmulatedFP32's, bit for bit.
TEST(HostGemmOrder, Int8SlicesDeepestExactSumAndDeeperCallsRunEmulatedFP32) {
  const float x = std::ldexp(-(126.0f * 65536 + 128 * 256 + 128), -23);
  const index_t k = int8_slices_max_depth;
  std::vector<float> a(static_cast<std::size_t>(k), x), b(static_cast<std::size_t>(k), x);
  float c = 0.0f;
  gemm(Int8Slices{}, 'T', 'N', 1, 1, k, 1.0f, a.data(), k, b.data(), k, 0.0f, &c, 1);
  const GemmArgs g = make_gemm_args("test", 'T', 'N', 1, 1, k, 1.0f, a.data(), k, b.data(), k, 0.0f, &c, 1);
  EXPECT_EQ(c, documented_int8_entry(g.a_rows(), 0, g.b_cols(), 0, 1.0f, 0.0f, 0.0f));

  const index_t deeper = k + 1;
  const test::Matrix am = test::random_matrix(3, deeper, test::fresh_seed()),
                     bm = test::random_matrix(deeper, 2, test::fresh_seed());
  test::Matrix as_int8(3, 2), as_emulated(3, 2);
  gemm(Int8Slices{}, 'N', 'N', 3, 2, deeper, 1.0f, am.ptr(), 3, bm.ptr(), deeper, 0.0f, as_int8.ptr(), 3);
  gemm(EmulatedFP32{}, 'N', 'N', 3, 2, deeper, 1.0f, am.ptr(), 3, bm.ptr(), deeper, 0.0f, as_emulated.ptr(), 3);
  EXPECT_EQ(as_int8.data, as_emulated.data);
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
