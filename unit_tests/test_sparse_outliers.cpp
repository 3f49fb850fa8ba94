// EmulatedFP32's sparse outliers on the host oracle: the rule that finds them,
// the path they leave the call on, and the result against the float64
// reference and against plain FP32 (NativeFP32, SGEMM's stand-in here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/reference.hpp"
#include "support/matrices.hpp"
#include "support/outlier_check.hpp"

namespace egemm {
namespace {

using test::Matrix;

TEST(SparseOutliers, TheRulesParts) {
  using numerics::outlier_threshold;
  EXPECT_EQ(outlier_threshold(1.0f), 256.0f);
  EXPECT_EQ(outlier_threshold(0.75f), 128.0f);  // the typical magnitude's power of two, times 2^8
  EXPECT_TRUE(std::isinf(outlier_threshold(0.0f)));  // nothing to judge by: no candidate
  EXPECT_TRUE(std::isinf(outlier_threshold(0x1p125f)));
  EXPECT_EQ(outlier_threshold(0x1p-149f), 0x1p-141f);
  const std::uint32_t t = numerics::float_bits(256.0f);
  EXPECT_TRUE(numerics::is_outlier_candidate(256.0f, t));
  EXPECT_TRUE(numerics::is_outlier_candidate(-3e38f, t));
  EXPECT_FALSE(numerics::is_outlier_candidate(255.9f, t));
  EXPECT_FALSE(numerics::is_outlier_candidate(std::numeric_limits<float>::infinity(), t));
  EXPECT_FALSE(numerics::is_outlier_candidate(std::nanf(""), t));
  numerics::TopTwo two;
  for (float v : {0.5f, 3.0f, 1.0f, 3.0f, 2.0f}) two.add(v);
  EXPECT_EQ(two.first, 3.0f);
  EXPECT_EQ(two.second, 3.0f);  // a tie counts twice
  numerics::TopTwo other;
  other.add(7.0f);
  two.merge(other);
  EXPECT_EQ(two.first, 7.0f);
  EXPECT_EQ(two.second, 3.0f);
  EXPECT_EQ(numerics::max_outliers_per_row(255), 0);  // shallow sums: the route does not pay
  EXPECT_EQ(numerics::max_outliers_per_row(512), 2);
  EXPECT_EQ(numerics::max_outliers_per_row(8192), numerics::outlier_slots);
  // A row wide only through its candidates takes the route; one that fits, or
  // stays wide without them, or has too many, does not.
  EXPECT_TRUE(routes_outliers({0x1p20f, 0x1p-12f}, 1.0f, 1, 1024));
  EXPECT_FALSE(routes_outliers({0x1p20f, 0x1p-4f}, 1.0f, 1, 1024));     // fits with it
  EXPECT_FALSE(routes_outliers({0x1p20f, 0x1p-40f}, 1.0f, 1, 1024));    // wide without it
  EXPECT_FALSE(routes_outliers({0x1p20f, 0x1p-12f}, 1.0f, 5, 1024));    // more than 1024 / 256
  EXPECT_FALSE(routes_outliers({0x1p20f, 0x1p-12f}, 1.0f, 1, 255));
}

// Uniform [-1, 1) operands, op(A) m x k and op(B) k x n, column-major 'N' 'N'.
struct Operands {
  Matrix a, b;
};

Operands uniform(index_t m, index_t n, index_t k, std::uint64_t seed) {
  return {test::random_matrix(m, k, seed), test::random_matrix(k, n, seed + 1)};
}

EmulatedFp32Choice choice_of(const Operands& o) {
  return emulated_fp32_choice('N', 'N', o.a.rows, o.b.cols, o.a.cols, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld);
}

struct Errors {
  double frobenius = 0, max_abs = 0;
};

// Over the entries where both C and the reference are finite.
Errors errors_of(const Matrix& c, const std::vector<double>& ref) {
  const reference::ErrorStats s = reference::compare(c.ptr(), c.ld, ref.data(), c.rows, c.cols);
  return {s.rel_frobenius, s.max_abs};
}

// EmulatedFP32 and NativeFP32 on `o` (alpha, beta on a random C) against the
// float64 reference: EmulatedFP32 within its a-priori bound entry by entry
// (where the reference is within FP32's range), Inf and NaN where FP32 has
// them, and (`than_fp32`) its largest and relative Frobenius errors at most
// FP32's. Returns C.
Matrix check_against_fp32(const Operands& o, float alpha = 1.0f, float beta = 0.0f, bool than_fp32 = true) {
  const index_t m = o.a.rows, n = o.b.cols, k = o.a.cols;
  const Matrix c0 = test::random_matrix(m, n, test::fresh_seed());
  Matrix emulated = c0, native = c0;
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, beta,
                                    emulated.ptr(), m);
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = test::error_bound(PolicyId::emulated_fp32, g, c0.data);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, beta, emulated.ptr(), m);
  gemm(NativeFP32{}, 'N', 'N', m, n, k, alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, beta, native.ptr(), m);
  int reported = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) {
      const double r = ref[i + j * m], v = emulated(i, j);
      if (std::isnan(v) != std::isnan(native(i, j)) || (std::isinf(v) && v != native(i, j))) {
        if (reported++ < 5) ADD_FAILURE() << "C(" << i << "," << j << ") = " << v << ", FP32 " << native(i, j);
        continue;
      }
      if (!std::isfinite(r) || std::fabs(r) > std::numeric_limits<float>::max()) continue;
      if (!(std::fabs(v - r) <= bound[i + j * m]) && reported++ < 5)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << v << ", float64 " << r << ", bound " << bound[i + j * m];
    }
  const Errors e = errors_of(emulated, ref), f = errors_of(native, ref);
  if (than_fp32) {
    EXPECT_LE(e.max_abs, f.max_abs);
    EXPECT_LE(e.frobenius, f.frobenius);
  }
  return emulated;
}

// Outliers at the given places of op(A) (rows, depths) or op(B) (depths,
// columns): the uniform value moved 0.5 away from 0, times 2^30, so that
// each makes its row wide for the FP16 pieces (its smallest element is
// certainly below 2^30 2^-28).
void scale_at(Matrix& x, const std::vector<std::pair<index_t, index_t>>& at, float by = 0x1p30f) {
  for (const auto& [r, c] : at) x(r, c) = x(r, c) >= 0.0f ? by * (0.5f + x(r, c)) : by * (x(r, c) - 0.5f);
}

TEST(SparseOutliers, OutliersInAOnlyStayOnTheFp16Path) {
  Operands o = uniform(96, 80, 1024, test::fresh_seed());
  scale_at(o.a, {{3, 10}, {17, 900}, {60, 0}, {61, 31}, {95, 1023}});
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.a.outlier_rows, 5);
  EXPECT_EQ(c.a.outliers, 5);
  EXPECT_EQ(c.a.wide_rows, 0);
  EXPECT_EQ(c.b.outlier_rows, 0);
  (void)check_against_fp32(o);
}

TEST(SparseOutliers, OutliersInBOnlyStayOnTheFp16Path) {
  Operands o = uniform(96, 80, 1024, test::fresh_seed());
  scale_at(o.b, {{10, 3}, {900, 17}, {0, 60}, {31, 61}, {1023, 79}});
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.b.outlier_rows, 5);
  EXPECT_EQ(c.a.outlier_rows, 0);
  (void)check_against_fp32(o, 0.75f, -1.5f);
}

// Several in one row and one column, an outlier of A meeting one of B (the
// product 2^40 counted once), and a row and a column holding both.
TEST(SparseOutliers, OutliersSharingRowsAndMeetingEachOther) {
  Operands o = uniform(64, 72, 1024, test::fresh_seed());
  scale_at(o.a, {{5, 100}, {5, 200}, {5, 700}, {9, 333}, {40, 512}});
  scale_at(o.b, {{100, 7}, {333, 7}, {512, 7}, {800, 30}, {200, 71}});
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.a.outlier_rows, 3);
  EXPECT_EQ(c.a.outliers, 5);
  EXPECT_EQ(c.b.outlier_rows, 3);
  EXPECT_EQ(c.b.outliers, 5);
  (void)check_against_fp32(o, -2.0f, 0.5f);
}

// Every transpose reads the same op(A) and op(B): the same bits.
TEST(SparseOutliers, EveryTransposeGivesTheSameBits) {
  Operands o = uniform(40, 36, 512, test::fresh_seed());
  scale_at(o.a, {{1, 3}, {1, 400}, {20, 100}});
  scale_at(o.b, {{100, 2}, {7, 35}});
  const index_t m = 40, n = 36, k = 512;
  const Matrix at = test::transposed(o.a), bt = test::transposed(o.b), c0 = test::random_matrix(m, n, test::fresh_seed());
  Matrix first = c0;
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 0.75f, o.a.ptr(), m, o.b.ptr(), k, -1.5f, first.ptr(), m);
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      Matrix c = c0;
      gemm(EmulatedFP32{}, ta, tb, m, n, k, 0.75f, ta == 'N' ? o.a.ptr() : at.ptr(), ta == 'N' ? m : k,
           tb == 'N' ? o.b.ptr() : bt.ptr(), tb == 'N' ? k : n, -1.5f, c.ptr(), m);
      EXPECT_EQ(c.data, first.data) << ta << tb;
    }
}

// Each entry is the dense part's (the same call on the operands without
// their routed outliers) plus the outliers' float64 sum, rounded once, in the
// documented order, whatever the transposes, alpha and beta; an outlier
// meeting an outlier counted once.
TEST(SparseOutliers, EntriesAreTheDensePartPlusTheOutliersBitForBit) {
  const index_t m = 70, n = 50, k = 768;
  Operands o = uniform(m, n, k, test::fresh_seed());
  scale_at(o.a, {{3, 40}, {3, 41}, {3, 500}, {9, 100}, {69, 767}});
  scale_at(o.b, {{40, 2}, {100, 2}, {300, 2}, {41, 49}, {767, 0}});
  const Matrix at = test::transposed(o.a), bt = test::transposed(o.b), c0 = test::random_matrix(m, n, test::fresh_seed());
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      const Matrix &a = ta == 'N' ? o.a : at, &b = tb == 'N' ? o.b : bt;
      Matrix c = c0, dense_c = c0;
      const GemmArgs g = make_gemm_args("test", ta, tb, m, n, k, 0.75f, a.ptr(), a.ld, b.ptr(), b.ld, -1.5f, c.ptr(), m);
      const auto [dense_a, dense_b] = test::without_routed_outliers(g, a.data, b.data);
      gemm(EmulatedFP32{}, ta, tb, m, n, k, 0.75f, dense_a.data(), a.ld, dense_b.data(), b.ld, -1.5f, dense_c.ptr(), m);
      gemm(EmulatedFP32{}, ta, tb, m, n, k, 0.75f, a.ptr(), a.ld, b.ptr(), b.ld, -1.5f, c.ptr(), m);
      EXPECT_EQ(c.data, test::dense_plus_outliers(g, dense_c.data)) << ta << tb;
      EXPECT_NE(c.data, dense_c.data);
    }
}

// Outliers whose products near FLT_MAX stay finite or overflow as FP32's sum
// does: one product of 3e38 (finite), two of one row meeting one column's
// values (overflow to +Inf), one of the other sign (-Inf).
TEST(SparseOutliers, OutliersAtTheEdgeOfFp32sRange) {
  Operands o = uniform(48, 40, 512, test::fresh_seed());
  o.a(4, 10) = 3e38f;
  o.b(10, 6) = 1.0f;
  o.a(8, 200) = 3e38f, o.a(8, 201) = 3e38f;
  o.b(200, 9) = 0.75f, o.b(201, 9) = 0.75f;
  o.a(12, 300) = -3e38f, o.a(12, 301) = -3e38f;
  o.b(300, 11) = 0.8f, o.b(301, 11) = 0.8f;
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.a.outlier_rows, 3);
  const Matrix out = check_against_fp32(o);
  EXPECT_TRUE(std::isfinite(out(4, 6)));
  EXPECT_EQ(out(8, 9), std::numeric_limits<float>::infinity());
  EXPECT_EQ(out(12, 11), -std::numeric_limits<float>::infinity());
}

// Inf and NaN in rows and columns that also hold routed outliers: their
// entries are FP32 gemm's (NaN or Inf as the reference), the others keep the route.
TEST(SparseOutliers, InfAndNanAmongOutliers) {
  Operands o = uniform(48, 40, 512, test::fresh_seed());
  scale_at(o.a, {{2, 5}, {3, 6}, {7, 300}});
  scale_at(o.b, {{5, 1}, {40, 4}});
  o.a(3, 100) = std::nanf("");
  o.a(7, 7) = std::numeric_limits<float>::infinity();
  o.b(9, 4) = -std::numeric_limits<float>::infinity();
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  const Matrix out = check_against_fp32(o);
  for (index_t j = 0; j < 40; ++j) EXPECT_TRUE(std::isnan(out(3, j))) << j;
  EXPECT_TRUE(std::isinf(out(7, 0)));
}

// The per-row limit is the switch: k / 256 candidates (here 4 at k = 1024)
// route the row; one more leaves it wide, and the wide-row rule decides.
TEST(SparseOutliers, AroundTheSwitchPoint) {
  Operands o = uniform(128, 64, 1024, test::fresh_seed());
  for (index_t i = 0; i < 128; ++i)  // every row routed: far beyond the 1 in 64 wide rows the FP16 path recomputes
    scale_at(o.a, {{i, (i * 37) % 1024}, {i, (i * 37 + 300) % 1024}, {i, (i * 37 + 600) % 1024}, {i, (i * 37 + 900) % 1024}});
  EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.a.outlier_rows, 128);
  EXPECT_EQ(c.a.outliers, 512);
  (void)check_against_fp32(o);
  scale_at(o.a, {{0, 1000}, {1, 1001}});  // rows 0 and 1: 5 each; 2 of 128 wide: the FP16 path recomputes them
  c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  EXPECT_EQ(c.a.outlier_rows, 126);
  EXPECT_EQ(c.a.wide_rows, 2);
  (void)check_against_fp32(o);
  scale_at(o.a, {{2, 1000}, {3, 1001}});  // 4 wide rows of 128: the TF32 path, as before
  c = choice_of(o);
  EXPECT_EQ(c.path, EmulationPath::tf32_full_range);
  (void)check_against_fp32(o, 1.0f, 0.0f, /*than_fp32=*/false);
}

// Outliers the rows' first values hold: the second largest of those still
// judges (one outlier in the prefix), two in the prefix hide each other and
// leave the row wide.
TEST(SparseOutliers, OutliersAmongTheFirstValues) {
  Operands o = uniform(64, 48, 512, test::fresh_seed());
  scale_at(o.a, {{1, 0}, {2, 31}, {3, 5}, {3, 400}});
  scale_at(o.a, {{4, 1}, {4, 2}});
  const EmulatedFp32Choice c = choice_of(o);
  EXPECT_EQ(c.a.outlier_rows, 3);
  EXPECT_EQ(c.a.wide_rows, 1);
  EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
  (void)check_against_fp32(o);
}

// Rows that are wide only for their outliers used to send the call to the
// TF32 path; NormwiseFP32 takes EmulatedFP32's call there, bit for bit.
TEST(SparseOutliers, NormwiseFP32TakesTheSameRoute) {
  Operands o = uniform(128, 96, 1024, test::fresh_seed());
  std::mt19937_64 gen(test::fresh_seed());
  for (int t = 0; t < 40; ++t) scale_at(o.a, {{static_cast<index_t>(gen() % 128), static_cast<index_t>(gen() % 1024)}});
  for (int t = 0; t < 40; ++t) scale_at(o.b, {{static_cast<index_t>(gen() % 1024), static_cast<index_t>(gen() % 96)}});
  const index_t m = 128, n = 96, k = 1024;
  EXPECT_EQ(normwise_fp32_path('N', 'N', m, n, k, o.a.ptr(), m, o.b.ptr(), k), EmulationPath::fp16_scaled);
  Matrix c1(m, n), c2(m, n);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, o.a.ptr(), m, o.b.ptr(), k, 0.0f, c1.ptr(), m);
  gemm(NormwiseFP32{}, 'N', 'N', m, n, k, 1.0f, o.a.ptr(), m, o.b.ptr(), k, 0.0f, c2.ptr(), m);
  EXPECT_EQ(c1.data, c2.data);
}

// Densities from 1 in 10^4 to 1 in 10^3 of entries 2^20 above uniform ones
// (up to 2 a row of 2048 on average): the FP16 path with the outliers apart,
// at least as accurate as FP32 in norm and in the largest entry error.
TEST(SparseOutliers, AtLeastAsAccurateAsFp32AcrossDensities) {
  for (double density : {1e-4, 5e-4, 1e-3}) {
    const std::uint64_t seed = test::fresh_seed();
    Operands o = uniform(192, 160, 2048, seed);
    std::mt19937_64 gen(seed);
    std::bernoulli_distribution hit(density);
    for (float& x : o.a.data)
      if (hit(gen)) x *= 0x1p20f;
    for (float& x : o.b.data)
      if (hit(gen)) x *= 0x1p20f;
    const EmulatedFp32Choice c = choice_of(o);
    std::printf("[ outliers ] density %g: %s, routed rows %lld + columns %lld (%lld + %lld outliers), wide %lld + %lld\n",
                density, path_name(c.path), static_cast<long long>(c.a.outlier_rows),
                static_cast<long long>(c.b.outlier_rows), static_cast<long long>(c.a.outliers),
                static_cast<long long>(c.b.outliers), static_cast<long long>(c.a.wide_rows),
                static_cast<long long>(c.b.wide_rows));
    SCOPED_TRACE("density " + std::to_string(density) + " seed " + std::to_string(seed));
    EXPECT_EQ(c.path, EmulationPath::fp16_scaled);
    (void)check_against_fp32(o);
  }
}

}  // namespace
}  // namespace egemm
