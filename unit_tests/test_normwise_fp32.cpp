// NormwiseFP32 on the host: the route (Int8Slices' digits where every row of
// op(A) and column of op(B) passes numerics::int8_digits_hold_row and the
// operands' column sums pass the cross rule, numerics::int8_digits_hold_product;
// else EmulatedFP32) gives each route's own bits, and on every input family of
// the Int8Slices accuracy study, and on operands whose small elements meet
// the other's mass, it is at least as accurate as FP32, normwise.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/reference.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using test::Matrix;

// C = op(A) op(B) with `tag` on the host, NN, alpha 1, beta 0, C poisoned first.
template <class Tag>
Matrix product(Tag tag, const Matrix& a, const Matrix& b) {
  Matrix c(a.rows, b.cols);
  test::poison(c);
  gemm(tag, 'N', 'N', a.rows, b.cols, a.cols, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, c.ptr(), c.ld);
  return c;
}

EmulationPath route_of(const Matrix& a, const Matrix& b) {
  return normwise_fp32_path('N', 'N', a.rows, b.cols, a.cols, a.ptr(), a.ld, b.ptr(), b.ld);
}

void expect_same_bits(const Matrix& c, const Matrix& want, const char* what) {
  int differ = 0;
  for (index_t j = 0; j < c.cols; ++j)
    for (index_t i = 0; i < c.rows; ++i)
      if (!(c(i, j) == want(i, j)) && differ++ < 3)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << c(i, j) << ", " << what << " gives " << want(i, j);
  EXPECT_EQ(differ, 0) << differ << " entries differ from " << what;
}

// The host's route for a b is `route`, and NormwiseFP32 gives that route's bits.
void expect_route_and_its_bits(const Matrix& a, const Matrix& b, EmulationPath route) {
  ASSERT_EQ(route_of(a, b), route);
  if (route == EmulationPath::int8_digits)
    expect_same_bits(product(NormwiseFP32{}, a, b), product(Int8Slices{}, a, b), "Int8Slices");
  else
    expect_same_bits(product(NormwiseFP32{}, a, b), product(EmulatedFP32{}, a, b), "EmulatedFP32");
}

// Uniform [-1, 1) rows at k = 2048: 2^e / mean|x| ~ 4, within sqrt(k) / 10 ~ 4.5.
TEST(NormwiseFP32, NarrowRowsTakeTheDigitsAndGiveInt8SlicesBits) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  const Matrix a = test::random_matrix(37, 2048, seed), b = test::random_matrix(2048, 29, seed + 1);
  expect_route_and_its_bits(a, b, EmulationPath::int8_digits);
}

// One value 2^10 larger in a single row of op(A), or column of op(B), sends the call to EmulatedFP32.
TEST(NormwiseFP32, OneSpreadRowOrColumnSendsTheCallToEmulatedFP32) {
  for (bool in_a : {true, false}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << (in_a ? "row of op(A)" : "column of op(B)") << ", seed " << seed);
    Matrix a = test::random_matrix(37, 2048, seed), b = test::random_matrix(2048, 29, seed + 1);
    if (in_a)
      a(5, 700) = 1024.0f;
    else
      b(300, 11) = -1024.0f;
    expect_route_and_its_bits(a, b, EmulationPath::fp16_scaled);
  }
}

// Shallow products: FP32's own error is small there, so the same uniform rows run EmulatedFP32.
TEST(NormwiseFP32, ShallowProductsRunEmulatedFP32) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  const Matrix a = test::random_matrix(20, 1024, seed), b = test::random_matrix(1024, 24, seed + 1);
  expect_route_and_its_bits(a, b, EmulationPath::fp16_scaled);
}

// Rows without a nonzero value are exact in digits: they never send the call away.
TEST(NormwiseFP32, ZeroRowsKeepTheDigits) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  Matrix a = test::random_matrix(16, 2048, seed), b = test::random_matrix(2048, 16, seed + 1);
  for (index_t p = 0; p < a.cols; ++p) a(3, p) = 0.0f;
  for (index_t p = 0; p < b.rows; ++p) b(p, 7) = 0.0f;
  expect_route_and_its_bits(a, b, EmulationPath::int8_digits);
}

// Where a few entries carry C's norm, both errors are a few random draws
// (numerics::int8_norm_spread_over_entries): C of fewer than 64 entries, or
// one row of op(A) and one column of op(B) 8x above the rest, runs
// EmulatedFP32; 8 x 8, or the row and column only 2x above, the digits.
TEST(NormwiseFP32, FewEntriesCarryingTheNormRunEmulatedFP32) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  struct Shape {
    index_t m, n;
    EmulationPath route;
  };
  for (const Shape s : {Shape{1, 1, EmulationPath::fp16_scaled}, Shape{7, 9, EmulationPath::fp16_scaled},
                        Shape{8, 8, EmulationPath::int8_digits}}) {
    SCOPED_TRACE(::testing::Message() << s.m << " x " << s.n);
    const Matrix a = test::random_matrix(s.m, 2048, seed), b = test::random_matrix(2048, s.n, seed + 1);
    expect_route_and_its_bits(a, b, s.route);
  }
  for (const float scale : {8.0f, 2.0f}) {
    SCOPED_TRACE(::testing::Message() << "one row and one column " << scale << "x above the rest");
    Matrix a = test::random_matrix(64, 4096, seed + 2), b = test::random_matrix(4096, 48, seed + 3);
    for (index_t p = 0; p < 4096; ++p) {
      a(5, p) *= scale;
      b(p, 7) *= scale;
    }
    expect_route_and_its_bits(a, b, scale == 8.0f ? EmulationPath::fp16_scaled : EmulationPath::int8_digits);
  }
}

// Operands whose small elements meet the other operand's mass
// (test::small_halves_meeting): each row's spread passes the row rule (R ~ 5
// at k = 16384), and Int8Slices alone is far above FP32's error; the cross
// rule sees where the small elements meet the mass, in halves of k or
// interleaved, in op(A) or (the product transposed) in op(B).
using test::AlignedOperands;

struct Errors {
  double normwise, int8, fp32;
};

Errors errors_on(const AlignedOperands& o) {
  std::vector<double> ref(static_cast<std::size_t>(o.a.rows * o.b.cols));
  Matrix unread(o.a.rows, o.b.cols);  // beta = 0
  reference::gemm_fp64(make_gemm_args("test", 'N', 'N', o.a.rows, o.b.cols, o.a.cols, 1.0f, o.a.ptr(), o.a.ld,
                                      o.b.ptr(), o.b.ld, 0.0f, unread.ptr(), unread.ld),
                       ref.data());
  const auto error_of = [&](const Matrix& c) {
    return reference::compare(c.ptr(), c.ld, ref.data(), c.rows, c.cols).rel_frobenius;
  };
  return {error_of(product(NormwiseFP32{}, o.a, o.b)), error_of(product(Int8Slices{}, o.a, o.b)),
          error_of(product(NativeFP32{}, o.a, o.b))};
}

TEST(NormwiseFP32, SmallElementsMeetingTheOtherOperandsMassRunEmulatedFP32) {
  for (bool interleaved : {false, true})
    for (bool in_b : {false, true}) {
      const std::uint64_t seed = test::fresh_seed();
      SCOPED_TRACE(::testing::Message() << (interleaved ? "interleaved" : "halves") << (in_b ? ", in op(B)" : ", in op(A)")
                                        << ", seed " << seed);
      AlignedOperands o = test::small_halves_meeting(seed, interleaved);
      if (in_b) o = AlignedOperands{test::transposed(o.b), test::transposed(o.a)};  // C^T = B^T A^T
      const GemmArgs g = make_operand_args("test", 'N', 'N', o.a.rows, o.b.cols, o.a.cols, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld);
      ASSERT_TRUE(int8_digits_hold(g.a_rows()) && int8_digits_hold(g.b_cols()))
          << "every row should pass the row rule: the case would not test the cross rule";
      // EmulatedFP32's own path: FP16, or TF32 where the small elements' smallest make many rows wide.
      expect_route_and_its_bits(o.a, o.b, emulated_fp32_path('N', 'N', o.a.rows, o.b.cols, o.a.cols, o.a.ptr(), o.a.ld,
                                                             o.b.ptr(), o.b.ld));
      const Errors e = errors_on(o);
      EXPECT_LE(e.normwise, e.fp32);
      EXPECT_GT(e.int8, 10.0 * e.fp32) << "the digits alone should lose here: the case would not test the cross rule";
    }
}

// The cross terms in the GPU's order (path_selection.cpp) are the model's
// sums, as a plain float64 loop over the elements gives them.
TEST(NormwiseFP32, TheCrossTermsAreTheModelsSums) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  Matrix a = test::random_matrix(70, 300, seed), b = test::random_matrix(300, 45, seed + 1);
  for (index_t p = 0; p < 300; p += 3) a(p % 70, p) = 0.0f;  // zeros count in neither sum
  b(7, 3) = std::ldexp(b(7, 3), 40);                         // a wide exponent in one column
  const GemmArgs g = make_operand_args("test", 'N', 'N', 70, 45, 300, a.ptr(), a.ld, b.ptr(), b.ld);
  const numerics::Int8CrossTerms got = int8_cross_terms(g.a_rows(), g.b_cols());
  const auto exponent_of = [](const OperandRows& rows, index_t r) {
    return numerics::int8_row_exponent(row_range(rows, r).max_abs);
  };
  double digits = 0.0, fp32 = 0.0, pairs = 0.0;
  for (index_t p = 0; p < 300; ++p)
    for (index_t i = 0; i < 70; ++i)
      for (index_t j = 0; j < 45; ++j) {
        const double x = a(i, p), y = b(p, j);
        if (x == 0.0 || y == 0.0) continue;  // an exact zero product: no term of either model
        const double za = std::ldexp(1.0, 2 * exponent_of(g.a_rows(), i));
        const double zb = std::ldexp(1.0, 2 * exponent_of(g.b_cols(), j));
        digits += za * y * y + x * x * zb + za * zb;
        fp32 += x * x * y * y;
        pairs += 1.0;
      }
  EXPECT_NEAR(got.digits, digits, 1e-12 * digits);
  EXPECT_NEAR(got.fp32, fp32, 1e-12 * fp32);
  EXPECT_EQ(got.pairs, pairs);
}

// From the operands or from their row panels' column sums (what the GPU's
// cross kernel is checked against), the same terms bit for bit: more row
// panels than the strided sum's lanes, a depth not a multiple of its groups;
// and one panel at a shallow depth, where a panel's own order (its rows in
// order) shows in the totals' last bits.
TEST(NormwiseFP32, TheCrossTermsFromPanelSumsAreTheOperandsBitForBit) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  // Per 32-row panel, its rows in order.
  const auto panel_sums = [](const OperandRows& rows) {
    const index_t k = rows.depth;
    std::vector<numerics::Int8ColumnSum> sums(static_cast<std::size_t>((rows.rows + 31) / 32 * k));
    for (index_t r = 0; r < rows.rows; ++r) {
      const int e = numerics::int8_row_exponent(row_range(rows, r).max_abs);
      for (index_t p = 0; p < k; ++p) {
        numerics::Int8ColumnSum& s = sums[static_cast<std::size_t>(r / 32 * k + p)];
        s = numerics::add_rn(s, numerics::int8_column_part(rows(r, p), e));
      }
    }
    return sums;
  };
  struct Shape {
    index_t m, n, k;
    std::uint64_t seed;
  };
  std::vector<Shape> shapes{{35 * 32 + 7, 40, 70, seed}};
  for (std::uint64_t i = 1; i <= 8; ++i) shapes.push_back({32, 32, 2, seed + 2 * i});  // a quarter pass by chance
  for (const Shape& s : shapes) {
    SCOPED_TRACE(::testing::Message() << s.m << " x " << s.n << " x " << s.k << ", seed " << s.seed);
    // Exponents over 2^-4..2^4: float64 sums of their squares (48-bit mantissas a few bits
    // apart) round at every add, so a sum in another order shows in the last bits.
    Matrix a = test::random_wide_matrix(s.m, s.k, s.seed, -4, 4);
    Matrix b = test::random_wide_matrix(s.k, s.n, s.seed + 1, -4, 4);
    const GemmArgs g = make_operand_args("test", 'N', 'N', s.m, s.n, s.k, a.ptr(), a.ld, b.ptr(), b.ld);
    const numerics::Int8CrossTerms from_rows = int8_cross_terms(g.a_rows(), g.b_cols());
    const numerics::Int8CrossTerms from_panels =
        int8_cross_terms_of_panels(panel_sums(g.a_rows()), panel_sums(g.b_cols()), s.k);
    EXPECT_EQ(std::memcmp(&from_rows, &from_panels, sizeof from_rows), 0)
        << std::hexfloat << from_rows.digits << " " << from_rows.fp32 << " against " << from_panels.digits << " "
        << from_panels.fp32;
    EXPECT_GT(from_rows.fp32, 0.0);
  }
}

// The study's input families (perf_tests/int8_accuracy): each that takes the
// digits ends at most FP32's error (summed in k order); the others take
// EmulatedFP32's (which on sparse rows is itself a little above FP32's).
struct Family {
  const char* name;
  std::function<float(std::mt19937&)> draw;
};

// Magnitudes 2^U[-s, s], random signs, as the study draws them.
std::function<float(std::mt19937&)> log_uniform(float s) {
  return [s](std::mt19937& g) {
    const float x = std::exp2(std::uniform_real_distribution<float>(-s, s)(g));
    return std::bernoulli_distribution(0.5)(g) ? x : -x;
  };
}

std::vector<Family> families() {
  auto uniform = [](std::mt19937& g) { return std::uniform_real_distribution<float>(-1.0f, 1.0f)(g); };
  return {{"uniform [-1, 1]", uniform},
          {"normal", [](std::mt19937& g) { return std::normal_distribution<float>(0.0f, 1.0f)(g); }},
          {"magnitudes over 2^-1..2^1", log_uniform(1.0f)},
          {"magnitudes over 2^-2..2^2", log_uniform(2.0f)},
          {"magnitudes over 2^-4..2^4", log_uniform(4.0f)},
          {"magnitudes over 2^-8..2^8", log_uniform(8.0f)},
          {"magnitudes over 2^-16..2^16", log_uniform(16.0f)},
          {"uniform, 90% zeros", [uniform](std::mt19937& g) { return std::bernoulli_distribution(0.1)(g) ? uniform(g) : 0.0f; }},
          {"uniform, 1 in 256 values 2^10 larger", [uniform](std::mt19937& g) {
             const float x = uniform(g);
             return std::bernoulli_distribution(1.0 / 256)(g) ? x * 1024.0f : x;
           }}};
}

Matrix drawn(index_t rows, index_t cols, const Family& f, std::mt19937& g) {
  Matrix m(rows, cols);
  for (float& x : m.data) x = f.draw(g);
  return m;
}

double error_of(const Matrix& c, const std::vector<double>& ref) {
  return reference::compare(c.ptr(), c.ld, ref.data(), c.rows, c.cols).rel_frobenius;
}

TEST(NormwiseFP32, EveryStudyFamilyTakingTheDigitsIsAtLeastAsAccurateAsFP32) {
  int digit_calls = 0;
  for (index_t k : {4096, 8192}) {
    for (const Family& f : families()) {
      const std::uint64_t seed = test::fresh_seed();
      SCOPED_TRACE(::testing::Message() << f.name << ", k = " << k << ", seed " << seed);
      std::mt19937 gen(static_cast<std::uint32_t>(seed));
      const Matrix a = drawn(64, k, f, gen), b = drawn(k, 64, f, gen);
      std::vector<double> ref(static_cast<std::size_t>(64 * 64));
      Matrix unread(64, 64);  // beta = 0
      reference::gemm_fp64(make_gemm_args("test", 'N', 'N', 64, 64, k, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f,
                                          unread.ptr(), 64),
                           ref.data());
      const double normwise = error_of(product(NormwiseFP32{}, a, b), ref);
      if (route_of(a, b) == EmulationPath::int8_digits) {
        ++digit_calls;
        const double fp32 = error_of(product(NativeFP32{}, a, b), ref);
        EXPECT_LE(normwise, fp32) << "digits: " << normwise << " against FP32's " << fp32;
      } else {
        EXPECT_EQ(normwise, error_of(product(EmulatedFP32{}, a, b), ref));
      }
    }
  }
  EXPECT_GE(digit_calls, 4) << "uniform rows and those over 2^-1..2^1 should take the digits at k = 4096 and 8192";
}

}  // namespace
}  // namespace egemm
