// Inputs the split must handle specially: Inf/NaN in rows of op(A) and
// columns of op(B) (recomputed by the fixup kernel as FP32 gemm would), and
// magnitudes far outside FP16's range (EmulatedFP32's row/column scaling).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "device_support.hpp"
#include "support/typed_policies.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {
namespace {

using test::Matrix;

// C(i, j) as FP32 gemm computes it in k order: what special-value entries must be.
float fp32_entry(const GemmArgs& g, const std::vector<float>& c_before, index_t i, index_t j) {
  const float s = test::fp32_sum(g, i, j);
  return g.beta == 0.0f ? g.alpha * s : std::fma(g.alpha, s, g.beta * c_before[g.c_offset(i, j)]);
}

// C(i, j) as the wide-row recomputation gives it: the sum by float64 fused
// multiply-adds in k order, rounded once to float, then alpha/beta as above.
float float64_entry(const GemmArgs& g, const std::vector<float>& c_before, index_t i, index_t j) {
  double sum = 0.0;
  for (index_t p = 0; p < g.k; ++p)
    sum = std::fma(static_cast<double>(g.a[g.a_offset(i, p)]), static_cast<double>(g.b[g.b_offset(p, j)]), sum);
  const float s = static_cast<float>(sum);
  return g.beta == 0.0f ? g.alpha * s : std::fma(g.alpha, s, g.beta * c_before[g.c_offset(i, j)]);
}

// Runs Policy on the device and checks every entry: special ones against
// fp32_entry (same value, NaN for NaN), the rest against the float64
// reference within the policy's a-priori bound. Returns the number of special entries.
template <class Policy>
index_t check_with_specials(Policy, Matrix& a, Matrix& b, Matrix& c, char ta, char tb, index_t m, index_t n, index_t k,
                            float alpha, float beta, const std::vector<bool>& row_special,
                            const std::vector<bool>& col_special) {
  const GemmArgs g =
      make_gemm_args("test", ta, tb, m, n, k, alpha, a.ptr(), a.ld, b.ptr(), b.ld, beta, c.ptr(), c.ld);
  const std::vector<float> c_before = c.data;
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = test::error_bound(policy_traits<Policy>::id, g, c_before);
  test::run_on_device(Policy{}, g, nullptr);

  index_t specials = 0;
  int reported = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) {
      const float v = c(i, j);
      if (row_special[i] || col_special[j]) {
        ++specials;
        const float want = fp32_entry(g, c_before, i, j);
        const bool same = std::isnan(want) ? std::isnan(v) : v == want;
        if (!same && reported++ < 5) ADD_FAILURE() << "special C(" << i << "," << j << ") = " << v << ", FP32 gemm gives " << want;
        continue;
      }
      const double err = std::fabs(v - ref[i + j * m]);
      if (!(std::isfinite(v) && err <= bound[i + j * m]) && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << v << ", reference " << ref[i + j * m] << ", error " << err
                      << " > bound " << bound[i + j * m];
    }
  EXPECT_EQ(reported, 0);
  return specials;
}

template <class Policy>
class CudaSpecialValues : public ::testing::Test {};
using SpecialValuePolicies = ::testing::Types<EmulatedFP32, RoundSplit4, TruncateSplit4, Half, NativeFP32>;
TYPED_TEST_SUITE(CudaSpecialValues, SpecialValuePolicies, test::PolicyNames);

TYPED_TEST(CudaSpecialValues, InfAndNaNRowsAndColumns) {
  EGEMM_REQUIRE_GPU();
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const index_t m = 37, n = 29, k = 50;
  for (char ta : {'N', 'T'})
    for (float beta : {0.0f, 1.5f}) {
      SCOPED_TRACE(std::string("transA ") + ta + " beta " + std::to_string(beta));
      Matrix a = ta == 'N' ? test::random_matrix(m, k, test::fresh_seed()) : test::random_matrix(k, m, test::fresh_seed());
      Matrix b = test::random_matrix(k, n, test::fresh_seed());
      Matrix c = test::random_matrix(m, n, test::fresh_seed());
      auto set_a = [&](index_t i, index_t p, float v) { (ta == 'N' ? a(i, p) : a(p, i)) = v; };
      set_a(3, 5, inf);
      set_a(10, 7, nan);
      set_a(20, 0, -inf);
      b(9, 4) = -inf;
      b(k - 1, 28) = nan;
      std::vector<bool> rows(m, false), cols(n, false);
      rows[3] = rows[10] = rows[20] = true;
      cols[4] = cols[28] = true;
      const index_t specials = check_with_specials(TypeParam{}, a, b, c, ta, 'N', m, n, k, 1.25f, beta, rows, cols);
      EXPECT_EQ(specials, 3 * n + 2 * m - 6);
    }
}

// alpha or beta Inf or NaN, as FP32 BLAS (the host test's cases), on the
// device: the kernels' epilogue, the special-value pass and C's scaling alone.
TYPED_TEST(CudaSpecialValues, InfAndNanAlphaAndBetaActAsInFp32Blas) {
  EGEMM_REQUIRE_GPU();
  for (const test::SpecialScalars& s : test::special_scalar_cases()) {
    test::check_special_scalars(policy_traits<TypeParam>::id, {'T', 'N', 130, 67, 70, s.alpha, s.beta, 2},
                                [&](const GemmArgs& g) { test::run_on_device(TypeParam{}, g, nullptr); });
    if (::testing::Test::HasFailure()) return;
  }
}

// Rows of op(A) and columns of op(B) spread over 2^-60 .. 2^60: each is
// scaled into FP16's range before the split (the fp16_scaled path), so the
// relative accuracy holds for every entry.
TEST(CudaEmulatedFP32, RowAndColumnScalingCoversFP32Range) {
  EGEMM_REQUIRE_GPU();
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> scale(-60, 60);
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      SCOPED_TRACE(std::string("transposes ") + ta + tb);
      const index_t m = 70, n = 45, k = 96;
      Matrix a = ta == 'N' ? test::random_matrix(m, k, gen()) : test::random_matrix(k, m, gen());
      Matrix b = tb == 'N' ? test::random_matrix(k, n, gen()) : test::random_matrix(n, k, gen());
      for (index_t i = 0; i < m; ++i) {
        const int e = scale(gen);
        for (index_t p = 0; p < k; ++p) {
          float& x = ta == 'N' ? a(i, p) : a(p, i);
          x = std::ldexp(x, e);
        }
      }
      for (index_t j = 0; j < n; ++j) {
        const int e = scale(gen);
        for (index_t p = 0; p < k; ++p) {
          float& x = tb == 'N' ? b(p, j) : b(j, p);
          x = std::ldexp(x, e);
        }
      }
      ASSERT_EQ(emulated_fp32_path(ta, tb, m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::fp16_scaled);
      Matrix c(m, n);
      test::poison(c);
      check_with_specials(EmulatedFP32{}, a, b, c, ta, tb, m, n, k, 1.0f, 0.0f, std::vector<bool>(m, false),
                          std::vector<bool>(n, false));
    }
}

// Elements spread 2^-20 .. 2^20 within a row: too wide for scaled FP16
// pieces, so EmulatedFP32 takes the TF32 path, chosen on the device.
TEST(CudaEmulatedFP32, WideRowsTakeTheTf32Path) {
  EGEMM_REQUIRE_GPU();
  std::mt19937_64 gen(test::fresh_seed());
  for (char ta : {'N', 'T'}) {
    const index_t m = 90, n = 60, k = 200;
    Matrix a = ta == 'N' ? test::random_wide_matrix(m, k, gen(), -20, 20) : test::random_wide_matrix(k, m, gen(), -20, 20);
    Matrix b = test::random_wide_matrix(k, n, gen(), -20, 20);
    ASSERT_EQ(emulated_fp32_path(ta, 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::tf32_full_range);
    Matrix c = test::random_matrix(m, n, gen());
    check_with_specials(EmulatedFP32{}, a, b, c, ta, 'N', m, n, k, -2.0f, 0.5f, std::vector<bool>(m, false),
                        std::vector<bool>(n, false));
  }
}

// A few wide rows and columns (here 3 of 300 rows, 1 of 200 columns; up to
// 1 in 64 is allowed): the FP16 path, with their entries recomputed on the
// device in float64 — bit for bit the host's float64_entry — and C's old
// values honoured (beta != 0), including where a wide row meets a wide
// column and where a wide row meets an Inf column (that entry is FP32 gemm's).
TEST(CudaEmulatedFP32, AFewWideRowsAreRecomputedInFloat64) {
  EGEMM_REQUIRE_GPU();
  std::mt19937_64 gen(test::fresh_seed());
  for (char ta : {'N', 'T'}) {
    const index_t m = 300, n = 200, k = 257;
    Matrix a = ta == 'N' ? test::random_matrix(m, k, gen()) : test::random_matrix(k, m, gen());
    Matrix b = test::random_matrix(k, n, gen());
    auto a_at = [&](index_t i, index_t p) -> float& { return ta == 'N' ? a(i, p) : a(p, i); };
    for (index_t i : {7, 150, 299}) a_at(i, (i * 13) % k) = 3e-12f;
    b(100, 42) = -2e-13f;
    b(5, 77) = std::numeric_limits<float>::infinity();  // column 77: FP32 gemm's entries, even in wide rows
    ASSERT_EQ(emulated_fp32_path(ta, 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::fp16_scaled);
    Matrix c = test::random_matrix(m, n, gen());
    const GemmArgs g = make_gemm_args("test", ta, 'N', m, n, k, 0.75f, a.ptr(), a.ld, b.ptr(), b.ld, -1.5f, c.ptr(), c.ld);
    const std::vector<float> c_before = c.data;
    std::vector<bool> col_special(n, false);
    col_special[77] = true;
    check_with_specials(EmulatedFP32{}, a, b, c, ta, 'N', m, n, k, 0.75f, -1.5f, std::vector<bool>(m, false),
                        col_special);
    for (index_t j = 0; j < n; ++j)
      for (index_t i : {7, 150, 299})
        if (j != 77) ASSERT_EQ(c(i, j), float64_entry(g, c_before, i, j)) << "wide row " << i << ", column " << j;
    for (index_t i = 0; i < m; ++i)
      ASSERT_EQ(c(i, 42), float64_entry(g, c_before, i, 42)) << "row " << i << ", wide column 42";
  }
}

// Nearly as many wide rows and columns as the FP16 path recomputes (63 of
// 4096 / 64 each: one spare, should a uniform draw be wide by chance), on a C
// large enough that the fixup's blocks each take several (line, span) items:
// every recomputed entry bit for bit the host's float64_entry.
TEST(CudaEmulatedFP32, ManyWideRowsAndColumnsSpreadOverTheFixupBlocks) {
  EGEMM_REQUIRE_GPU();
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 4096, n = 4096, k = 96;
  Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(k, n, gen());
  std::vector<index_t> wide;
  for (index_t q = 0; q + 1 < max_recomputed_rows(m); ++q) wide.push_back(64 * q + q % 64);
  for (index_t i : wide) a(i, i % k) = 3e-12f;
  for (index_t j : wide) b((j * 7) % k, j) = -2e-13f;
  ASSERT_EQ(emulated_fp32_path('N', 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::fp16_scaled);
  Matrix c = test::random_matrix(m, n, gen());
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, 1.25f, a.ptr(), a.ld, b.ptr(), b.ld, 0.5f, c.ptr(), c.ld);
  const std::vector<float> c_before = c.data;
  test::run_on_device(EmulatedFP32{}, g, nullptr);
  for (index_t line : wide)
    for (index_t other = 0; other < m; ++other) {
      ASSERT_EQ(c(line, other), float64_entry(g, c_before, line, other)) << "wide row " << line << ", column " << other;
      ASSERT_EQ(c(other, line), float64_entry(g, c_before, other, line)) << "row " << other << ", wide column " << line;
    }
}

// A magnitude beyond TF32's largest finite value: the plain FP32 path.
// Random shapes, transposes, alpha and beta, with whatever mixes the path
// choice has to sort out: rows of op(A) and columns of op(B) scaled by
// 2^-50..2^50, a few wide rows or columns (a tiny element among O(1) ones:
// none, a recomputed one, or enough to rule the FP16 path out), and Inf or
// NaN in a row or column. Whatever path EmulatedFP32 takes, special entries
// are FP32's and the rest within the bound of that path.
TEST(CudaEmulatedFP32, RandomMixedInputs) {
  EGEMM_REQUIRE_GPU();
  constexpr float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  constexpr float alphas[] = {1.0f, -0.75f, 2.5f}, betas[] = {0.0f, 1.0f, -0.5f};
  const std::uint64_t seed = test::fresh_seed();
  std::mt19937_64 gen(seed);
  std::uniform_int_distribution<index_t> extent(1, 200);
  // Up to 2^+-25 per scaling: a row or column may be picked twice, and the
  // products must stay below FLT_MAX (2^100 x k < 2^128), as FP32's would.
  std::uniform_int_distribution<int> coin(0, 1), pick(0, 2), scale(-25, 25);
  int paths[3] = {0, 0, 0};  // by EmulationPath
  for (int round = 0; round < 18; ++round) {
    const index_t m = extent(gen), n = extent(gen), k = extent(gen);
    const char ta = coin(gen) ? 'N' : 'T', tb = coin(gen) ? 'N' : 'T';
    const float alpha = alphas[pick(gen)], beta = betas[pick(gen)];
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " round " << round << " " << ta << tb << " m=" << m
                                      << " n=" << n << " k=" << k << " alpha=" << alpha << " beta=" << beta);
    Matrix a = ta == 'N' ? test::random_matrix(m, k, gen()) : test::random_matrix(k, m, gen());
    Matrix b = tb == 'N' ? test::random_matrix(k, n, gen()) : test::random_matrix(n, k, gen());
    Matrix c = test::random_matrix(m, n, gen());
    auto at_a = [&](index_t i, index_t p) -> float& { return ta == 'N' ? a(i, p) : a(p, i); };
    auto at_b = [&](index_t p, index_t j) -> float& { return tb == 'N' ? b(p, j) : b(j, p); };
    std::uniform_int_distribution<index_t> row(0, m - 1), col(0, n - 1), depth(0, k - 1);
    for (int r = 0; r < 3; ++r) {  // rows and columns at scales far outside FP16's range
      const index_t i = row(gen), j = col(gen);
      const int ei = scale(gen), ej = scale(gen);
      for (index_t p = 0; p < k; ++p) at_a(i, p) = std::ldexp(at_a(i, p), ei), at_b(p, j) = std::ldexp(at_b(p, j), ej);
    }
    const int wide = round % 3 == 0 ? 0 : round % 3 == 1 ? 1 : 3;  // rows of op(A) with a tiny element
    for (int w = 0; w < wide && k > 1; ++w) at_a(w * (m - 1) / 3, depth(gen)) *= 0x1p-40f;
    std::vector<bool> rows(static_cast<std::size_t>(m), false), cols(static_cast<std::size_t>(n), false);
    if (coin(gen)) {
      const index_t i = row(gen);
      at_a(i, depth(gen)) = coin(gen) ? inf : nan;
      rows[i] = true;
    }
    if (coin(gen)) {
      const index_t j = col(gen);
      at_b(depth(gen), j) = coin(gen) ? -inf : nan;
      cols[j] = true;
    }
    ++paths[static_cast<int>(emulated_fp32_path(ta, tb, m, n, k, a.ptr(), a.ld, b.ptr(), b.ld))];
    check_with_specials(EmulatedFP32{}, a, b, c, ta, tb, m, n, k, alpha, beta, rows, cols);
    if (::testing::Test::HasFailure()) return;
  }
  std::printf("paths taken: fp16_scaled %d, tf32_full_range %d, native_fp32 %d\n", paths[0], paths[1], paths[2]);
  EXPECT_GT(paths[0], 0);
  EXPECT_GT(paths[1], 0);
}

// FP32's subnormals on the device (the host test's case): the scaled FP16
// path lifts them exactly; with wide rows too, the device's path choice
// takes native FP32 rather than TF32 pieces.
TEST(CudaEmulatedFP32, SubnormalRowsAreAsAccurateAsInFp32) {
  EGEMM_REQUIRE_GPU();
  for (bool with_wide_rows : {false, true})
    test::check_subnormal_rows(with_wide_rows, [](const GemmArgs& g) { test::run_on_device(EmulatedFP32{}, g, nullptr); });
}

TEST(CudaEmulatedFP32, HugeMagnitudesTakeTheNativePath) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 40, n = 33, k = 70;
  Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  a(5, 9) = 0.99999f * std::numeric_limits<float>::max();
  for (index_t p = 0; p < k; ++p) b(p, 0) *= 0x1p-100f;  // keeps row 5 times column 0 finite
  for (index_t j = 1; j < n; ++j) b(9, j) *= 0x1p-100f;  // and every other entry of row 5
  ASSERT_EQ(emulated_fp32_path('N', 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::native_fp32);
  Matrix c = test::random_matrix(m, n, test::fresh_seed());
  check_with_specials(EmulatedFP32{}, a, b, c, 'N', 'N', m, n, k, 1.0f, 1.0f, std::vector<bool>(m, false),
                      std::vector<bool>(n, false));
}

}  // namespace
}  // namespace egemm
