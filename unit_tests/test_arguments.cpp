// Bad arguments throw egemm::invalid_argument naming the argument, and C is
// left untouched; degenerate sizes and alpha/beta behave as BLAS says.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "egemm/errors.hpp"
#include "egemm/gemm.hpp"
#include "support/gemm_check.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using test::Matrix;

struct Problem {
  Matrix a = test::random_matrix(6, 5, test::fresh_seed());
  Matrix b = test::random_matrix(5, 4, test::fresh_seed());
  Matrix c = test::random_matrix(6, 4, test::fresh_seed());
};

template <class F>
void expect_rejected(F call, const std::string& needle) {
  Problem p;
  const std::vector<float> before = p.c.data;
  try {
    call(p);
    ADD_FAILURE() << "expected egemm::invalid_argument mentioning '" << needle << "'";
  } catch (const egemm::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  for (std::size_t i = 0; i < before.size(); ++i)
    ASSERT_TRUE(p.c.data[i] == before[i] || (std::isnan(p.c.data[i]) && std::isnan(before[i]))) << "C changed at " << i;
}

TEST(Arguments, BadInputsThrowAndLeaveCUntouched) {
  const EmulatedFP32 tag;
  expect_rejected([&](Problem& p) { gemm(tag, 'X', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "transA");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', '?', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "transB");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', -1, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "m must be >= 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, -4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "n must be >= 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, -5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "k must be >= 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 5, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "lda");
  expect_rejected([&](Problem& p) { gemm(tag, 'T', 'N', 6, 4, 5, 1, p.a.ptr(), 4, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "lda must be >= max(1, k)");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 4, 0, p.c.ptr(), 6); }, "ldb");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'T', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 3, 0, p.c.ptr(), 6); }, "ldb must be >= max(1, n)");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 5); }, "ldc");
  // As in BLAS, a leading dimension is at least 1 even where the matrix has no rows.
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 0, 4, 5, 1, p.a.ptr(), 0, p.b.ptr(), 5, 0, p.c.ptr(), 1); },
                  "lda must be >= max(1, m) = 1, got 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'T', 'N', 6, 4, 0, 1, p.a.ptr(), 0, p.b.ptr(), 1, 0, p.c.ptr(), 6); },
                  "lda must be >= max(1, k) = 1, got 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 0, 4, 5, 1, p.a.ptr(), 1, p.b.ptr(), 5, 0, p.c.ptr(), 0); },
                  "ldc must be >= max(1, m) = 1, got 0");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, nullptr, 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); }, "A is null");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, nullptr, 5, 0, p.c.ptr(), 6); }, "B is null");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, nullptr, 6); }, "C is null");
  // C sharing elements with an input: C one row down inside A's storage
  // (A(1, 0) is C(0, 0)), and inside B's with another leading dimension;
  // C on A's last element only.
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 2, 2, 2, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.a.ptr() + 1, 6); }, "overlaps A");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 2, 2, 2, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.b.ptr() + 1, 6); }, "overlaps B");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 2, 2, 2, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.a.ptr() + 7, 6); }, "overlaps A");
  // A NUL transpose (the first character of an empty string) shows as its code, the message whole.
  expect_rejected([&](Problem& p) { gemm(tag, 'N', '\0', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6); },
                  "transB must be one of N, T, C (either case), got (0x0)");
  // A leading dimension whose last column lies beyond any address.
  const index_t huge = index_t{1} << 61;
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), huge, p.b.ptr(), 5, 0, p.c.ptr(), 6); },
                  "lda = 2305843009213693952 for a 6 x 5 matrix puts its last element beyond any address");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), huge); },
                  "ldc = 2305843009213693952 for a 6 x 4 matrix");
  // One column whose rows alone run beyond any address (no leading dimension steps over it).
  const index_t rows = index_t{1} << 62;
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', rows, 1, 1, 1, p.a.ptr(), rows, p.b.ptr(), 1, 0, p.c.ptr(), rows); },
                  "lda = 4611686018427387904 for a 4611686018427387904 x 1 matrix puts its last element beyond any address");
  expect_rejected([&](Problem& p) { gemm(tag, 'N', 'N', rows, 1, 1, 0, nullptr, rows, nullptr, 1, 0, p.c.ptr(), rows); },
                  "lda = 4611686018427387904 for a 4611686018427387904 x 1 matrix");
}

// The aliasing check against a brute-force one: random layouts of A and C in
// one buffer (equal and unequal leading dimensions, both orders, wrapping
// rows), refused exactly when some element of C is an element of A.
TEST(Arguments, AliasingIsDecidedElementByElement) {
  std::mt19937 gen(static_cast<unsigned>(test::fresh_seed()));
  std::uniform_int_distribution<int> extent(1, 6), pad(0, 4), offset(0, 120), coin(0, 1);
  std::vector<float> buffer(400, 1.0f), b(64, 1.0f);
  int refused = 0, accepted = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const index_t m = extent(gen), n = extent(gen), k = extent(gen);
    const index_t lda = m + pad(gen), ldc = coin(gen) ? lda : m + pad(gen);  // often one leading dimension
    const index_t a_at = offset(gen), c_at = offset(gen);
    std::set<index_t> a_elements;
    for (index_t p = 0; p < k; ++p)
      for (index_t i = 0; i < m; ++i) a_elements.insert(a_at + i + p * lda);
    bool shared = false;
    for (index_t j = 0; j < n && !shared; ++j)
      for (index_t i = 0; i < m && !shared; ++i) shared = a_elements.count(c_at + i + j * ldc) > 0;
    bool threw = false;
    try {
      (void)make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, buffer.data() + a_at, lda, b.data(), k, 0.0f,
                           buffer.data() + c_at, ldc);
    } catch (const invalid_argument&) {
      threw = true;
    }
    ASSERT_EQ(threw, shared) << "m=" << m << " n=" << n << " k=" << k << " lda=" << lda << " ldc=" << ldc
                             << " A at " << a_at << ", C at " << c_at;
    (threw ? refused : accepted)++;
  }
  EXPECT_GT(refused, 100);
  EXPECT_GT(accepted, 100);
}

// Blocks of one matrix that share no element are separate operands, however
// their address ranges interleave: the trailing update of a blocked
// factorisation, A22 -= A21 A12, reads and writes one array (C = A22 lies
// between A12's columns). Also A's rows 0..2 against C's rows 3..5 of the
// same columns (ld 6).
TEST(Arguments, DisjointBlocksOfOneMatrixAreAccepted) {
  for_each_policy([&](auto tag) {
    test::check_trailing_update(policy_traits<decltype(tag)>::id, [&](Matrix& m, index_t n, index_t b) {
      gemm(tag, 'N', 'N', n - b, n - b, b, -1.0f, m.ptr() + b, m.ld, m.ptr() + b * m.ld, m.ld, 1.0f,
           m.ptr() + b + b * m.ld, m.ld);
    });
  });
  Matrix a(6, 4);
  for (float& v : a.data) v = 1.0f;
  Matrix b2 = test::random_matrix(2, 2, test::fresh_seed());
  EXPECT_NO_THROW(gemm(NativeFP32{}, 'N', 'N', 3, 2, 2, 1, a.ptr(), 6, b2.ptr(), 2, 0, a.ptr() + 3, 6));
}

TEST(Arguments, LowerCaseAndConjugateTransposesAreAccepted) {
  const Matrix a = test::random_matrix(6, 6, test::fresh_seed());
  for (char t : {'n', 't', 'c', 'C', 'T', 'N'}) {
    Matrix c(6, 6);
    EXPECT_NO_THROW(gemm(NativeFP32{}, t, t, 6, 6, 6, 1, a.ptr(), 6, a.ptr(), 6, 0, c.ptr(), 6)) << t;
  }
}

TEST(Arguments, EmptyProblemsTouchNothing) {
  Problem p;
  const std::vector<float> before = p.c.data;
  gemm(EmulatedFP32{}, 'N', 'N', 0, 4, 5, 1, nullptr, 1, p.b.ptr(), 5, 0, p.c.ptr(), 1);
  gemm(EmulatedFP32{}, 'N', 'N', 6, 0, 5, 1, p.a.ptr(), 6, nullptr, 5, 0, nullptr, 6);
  // An empty C reads neither operand, as in BLAS: both may be null.
  for_each_policy([](auto tag) {
    EXPECT_NO_THROW(gemm(tag, 'N', 'N', 0, 2, 2, 1, nullptr, 1, nullptr, 2, 0, nullptr, 1));
    EXPECT_NO_THROW(gemm(tag, 'T', 'N', 2, 0, 2, 1, nullptr, 2, nullptr, 2, 0, nullptr, 2));
  });
  EXPECT_EQ(p.c.data, before);
}

TEST(Arguments, KZeroOrAlphaZeroScalesCWithoutReadingAOrB) {
  Problem p;
  Matrix nan_a(6, 5);
  std::fill(nan_a.data.begin(), nan_a.data.end(), std::nanf(""));
  const std::vector<float> before = p.c.data;
  gemm(EmulatedFP32{}, 'N', 'N', 6, 4, 0, 1, nullptr, 6, nullptr, 5, 2.0f, p.c.ptr(), 6);  // k == 0
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(p.c.data[i], 2.0f * before[i]);
  gemm(EmulatedFP32{}, 'N', 'N', 6, 4, 5, 0, nan_a.ptr(), 6, p.b.ptr(), 5, 0.5f, p.c.ptr(), 6);  // alpha == 0
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(p.c.data[i], before[i]);
  // As in BLAS, alpha == 0 reads neither A nor B: they may be null, or C itself.
  gemm(EmulatedFP32{}, 'N', 'N', 6, 4, 5, 0, nullptr, 6, nullptr, 5, 2.0f, p.c.ptr(), 6);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(p.c.data[i], 2.0f * before[i]);
  gemm(EmulatedFP32{}, 'N', 'N', 6, 4, 4, 0, p.c.ptr(), 6, p.c.ptr(), 4, 0.5f, p.c.ptr(), 6);
  for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(p.c.data[i], before[i]);
}

TEST(Arguments, BetaZeroNeverReadsC) {
  for_each_policy([](auto tag) {
    Problem p;
    test::poison(p.c);
    gemm(tag, 'N', 'N', 6, 4, 5, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6);
    for (float v : p.c.data) EXPECT_TRUE(std::isfinite(v)) << policy_traits<decltype(tag)>::name;
    gemm(tag, 'N', 'N', 6, 4, 0, 1, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6);  // scale path
    test::poison(p.c);
    gemm(tag, 'N', 'N', 6, 4, 5, 0, p.a.ptr(), 6, p.b.ptr(), 5, 0, p.c.ptr(), 6);
    for (float v : p.c.data) EXPECT_EQ(v, 0.0f) << policy_traits<decltype(tag)>::name;
  });
}

}  // namespace
}  // namespace egemm
