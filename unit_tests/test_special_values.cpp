// Inf and NaN propagate as FP32 gemm propagates them, for every policy; the
// default policy covers FP32's whole exponent range; and its accuracy is at
// least that of plain FP32.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "egemm/gemm.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/reference.hpp"
#include "support/gemm_check.hpp"

namespace egemm {
namespace {

using test::Matrix;

// float64 C = A B (column-major, 'N','N', alpha 1, beta 0) and EmulatedFP32's
// a-priori bound for every entry, before the gemm under test writes c.
struct ReferenceAndBound {
  std::vector<double> ref, bound;
};
ReferenceAndBound emulated_fp32_reference(const Matrix& a, const Matrix& b, Matrix& c) {
  const GemmArgs args =
      make_gemm_args("test", 'N', 'N', c.rows, c.cols, a.cols, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, c.ptr(), c.ld);
  ReferenceAndBound r{std::vector<double>(static_cast<std::size_t>(c.rows * c.cols)), {}};
  reference::gemm_fp64(args, r.ref.data());
  r.bound = test::error_bound(PolicyId::emulated_fp32, args, c.data);
  return r;
}
constexpr float inf = std::numeric_limits<float>::infinity();

void expect_same_class(float got, float want, index_t i, index_t j, const char* policy) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << policy << " C(" << i << "," << j << ") = " << got << ", FP32 gives NaN";
  } else if (std::isinf(want)) {
    EXPECT_EQ(got, want) << policy << " C(" << i << "," << j << ")";
  } else {
    EXPECT_TRUE(std::isfinite(got)) << policy << " C(" << i << "," << j << ") = " << got << ", FP32 gives " << want;
  }
}

TEST(SpecialValues, InfAndNanPropagateAsInFp32ForEveryPolicy) {
  for_each_policy([](auto tag) {
    const char* name = policy_traits<decltype(tag)>::name;
    const index_t m = 9, n = 7, k = 40;
    Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
    a(1, 3) = inf;                 // row 1: +Inf times finite values: +-Inf entries
    a(2, 5) = inf;                 // row 2: +Inf and -Inf in one row: NaN entries
    a(2, 9) = -inf;
    a(4, 0) = std::nanf("");       // row 4: NaN
    b(7, 3) = -inf;                // column 3: -Inf
    b(11, 5) = 0.0f;               // an exact zero meeting Inf: Inf * 0 = NaN as in FP32
    a(6, 11) = inf;
    a(5, k - 1) = -inf;            // row 5 and column 1: their only special value in the last k (the tail)
    b(k - 1, 1) = inf;
    Matrix c(m, n);
    test::poison(c);
    gemm(tag, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
    // What FP32 gives for each entry: a k-order fmaf dot product (test::fp32_sum).
    const GemmArgs fp32 = make_gemm_args("fp32", 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < m; ++i) expect_same_class(c(i, j), test::fp32_sum(fp32, i, j), i, j, name);
    // Rows and columns without special values are unaffected.
    EXPECT_TRUE(std::isfinite(c(0, 0)) && std::isfinite(c(8, 6))) << name;
  });
}

TEST(SpecialValues, NanInCWithBetaZeroDoesNotLeakButDoesWithBetaNonZero) {
  const Matrix a = test::random_matrix(5, 5, test::fresh_seed()), b = test::random_matrix(5, 5, test::fresh_seed());
  Matrix c(5, 5);
  test::poison(c);
  gemm(EmulatedFP32{}, 'N', 'N', 5, 5, 5, 1.0f, a.ptr(), 5, b.ptr(), 5, 0.0f, c.ptr(), 5);
  for (float v : c.data) EXPECT_TRUE(std::isfinite(v));
  test::poison(c);
  gemm(EmulatedFP32{}, 'N', 'N', 5, 5, 5, 1.0f, a.ptr(), 5, b.ptr(), 5, 1.0f, c.ptr(), 5);
  for (float v : c.data) EXPECT_TRUE(std::isnan(v));
}

// EmulatedFP32's few wide rows (columns) are recomputed in float64 after the
// gemm and its entries touching Inf or NaN in FP32: an entry that is both,
// with beta != 0, must still be computed once, from the caller's C. Row 5 of
// A is wide (a 2^-40 spread) and holds +Inf, column 3 of B is wide, column 6
// holds -Inf: every entry in the class FP32 BLAS gives it, alpha AB + beta C.
TEST(SpecialValues, InfInTheRecomputedWideRowsActsAsInFp32WithBeta) {
  const index_t m = 20, n = 10, k = 30;
  for (float beta : {-2.5f, 0.0f}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << "beta " << beta << ", seed " << seed);
    Matrix a = test::random_matrix(m, k, seed), b = test::random_matrix(k, n, seed + 1),
           c = test::random_matrix(m, n, seed + 2);
    a(5, 7) = 1e-12f;
    a(5, 20) = inf;
    b(11, 3) = 1e-13f;
    b(4, 6) = -inf;
    ASSERT_EQ(emulated_fp32_path('N', 'N', m, n, k, a.ptr(), m, b.ptr(), k), EmulationPath::fp16_scaled);
    const Matrix c_before = c;
    if (beta == 0.0f) test::poison(c);
    gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.5f, a.ptr(), m, b.ptr(), k, beta, c.ptr(), m);
    const GemmArgs fp32 = make_gemm_args("fp32", 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
    for (index_t j = 0; j < n; ++j)
      for (index_t i = 0; i < m; ++i) {
        const double ab = 1.5 * static_cast<double>(test::fp32_sum(fp32, i, j));
        const double want = beta == 0.0f ? ab : ab + static_cast<double>(beta) * c_before(i, j);
        expect_same_class(c(i, j), static_cast<float>(want), i, j, "EmulatedFP32");
      }
  }
}

// alpha or beta Inf or NaN, every policy, as FP32 BLAS: NaN alpha makes every
// entry NaN, alpha == 0 reads neither A nor B, beta == 0 never reads C.
TEST(SpecialValues, InfAndNanAlphaAndBetaActAsInFp32Blas) {
  for_each_policy([](auto tag) {
    for (const test::SpecialScalars& s : test::special_scalar_cases())
      test::check_special_scalars(policy_traits<decltype(tag)>::id, {'N', 'T', 23, 19, 31, s.alpha, s.beta, 1},
                                  [&](const GemmArgs& g) { test::run_on_host(tag, g, g.c); });
  });
}

// Rows of A and columns of B at wildly different scales: per-row/column
// power-of-two scaling keeps EmulatedFP32 within its FP32-level bound, where
// FP16-range policies overflow or flush.
TEST(WideExponents, EmulatedFP32KeepsItsBoundAcrossFp32Range) {
  const index_t m = 33, n = 31, k = 64;
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  Matrix a = test::random_wide_matrix(m, k, seed, -20, 20), b = test::random_wide_matrix(k, n, seed + 1, -20, 20);
  for (index_t p = 0; p < k; ++p) {
    a(0, p) = std::ldexp(a(0, p), 80);   // a row up to 2^100 (products stay below FP32 max)
    a(1, p) = std::ldexp(a(1, p), -90);  // a row down to 2^-110
  }
  for (index_t p = 0; p < k; ++p) b(p, 2) = std::ldexp(b(p, 2), -60);
  Matrix c(m, n), c_rs4(m, n);
  const ReferenceAndBound r = emulated_fp32_reference(a, b, c);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i)
      ASSERT_LE(std::fabs(c(i, j) - r.ref[i + j * m]), r.bound[i + j * m]) << i << "," << j << " ref " << r.ref[i + j * m];
  // The same inputs overflow the FP16-range paper algorithm (the documented limit).
  gemm(RoundSplit4{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c_rs4.ptr(), m);
  EXPECT_FALSE(std::isfinite(c_rs4(0, 0)));
}

// FP32's subnormals (support/gemm_check.hpp): the scaled FP16 path lifts
// them exactly; with wide rows too, native FP32 rather than TF32 pieces.
TEST(WideExponents, SubnormalRowsAreAsAccurateAsInFp32) {
  for (bool with_wide_rows : {false, true})
    test::check_subnormal_rows(with_wide_rows, [](const GemmArgs& g) { test::run_on_host(EmulatedFP32{}, g, g.c); });
}

// Results close to FLT_MAX stay finite where FP32 gemm's do: the scaling is
// undone once, on the final sum, so no intermediate can overflow earlier.
TEST(WideExponents, ResultsNearFltMaxDoNotOverflow) {
  const index_t m = 8, n = 8, k = 32;
  std::mt19937 gen(static_cast<unsigned>(test::fresh_seed()));
  std::uniform_real_distribution<float> u(0.5f, 1.0f);
  Matrix a(m, k), b(k, n), c(m, n);
  for (float& x : a.data) x = u(gen) * 2.5e18f;  // products <= 6.25e36, sums <= 2e38 < FLT_MAX = 3.4e38
  for (float& x : b.data) x = u(gen) * 2.5e18f;
  const ReferenceAndBound r = emulated_fp32_reference(a, b, c);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), m, b.ptr(), k, 0.0f, c.ptr(), m);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) {
      ASSERT_LT(r.ref[i + j * m], static_cast<double>(std::numeric_limits<float>::max()));
      ASSERT_TRUE(std::isfinite(c(i, j))) << i << "," << j;
      EXPECT_LE(std::fabs(c(i, j) - r.ref[i + j * m]), r.bound[i + j * m]) << i << "," << j;
    }
}

TEST(Accuracy, EmulatedFP32IsAtLeastAsAccurateAsPlainFp32OnUniformInputs) {
  // Relative Frobenius error against float64, same inputs; the FP32 run is the
  // host's NativeFP32 (k-order FP32 accumulation, like a SIMT SGEMM's inner loop).
  for (index_t size : {128, 384}) {
    test::GemmCase c{'N', 'T', size, size, size, 1.0f, 0.0f, 0};
    const double emulated = test::check_host_gemm(EmulatedFP32{}, c);
    const double fp32 = test::check_host_gemm(NativeFP32{}, c);
    const double half = test::check_gemm(PolicyId::half, c, [&](const GemmArgs& g) {
      // Half must fail FP32-level accuracy by far: shows the comparison can fail.
      gemm(Half{}, 'N', 'T', g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, g.c, g.ldc);
    });
    EXPECT_LE(emulated, fp32) << "size " << size;
    EXPECT_GT(half, 50.0 * fp32) << "size " << size;
  }
}

}  // namespace
}  // namespace egemm
