// EmulatedFP64 on the host: the arithmetic pieces (residues, scaled
// integers, the row scale's norm bound, the CRT reconstruction) against
// 128-bit integers; the whole gemm against the same algorithm summed
// directly in 128-bit integers (bit for bit), against exact dot products
// beside DGEMM's arithmetic on the same entries, and for special values,
// overflow, subnormals, wide rows and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "egemm/errors.hpp"
#include "egemm/gemm.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/float64_sum.hpp"
#include "egemm/numerics/fp64_handoff.hpp"
#include "support/fp64_direct.hpp"
#include "support/fp64_exact.hpp"
#include "support/fp64_matrices.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

namespace crt = numerics::crt;
using test::Fill64;
using test::Matrix64;

constexpr double nan64 = std::numeric_limits<double>::quiet_NaN();
constexpr double inf64 = std::numeric_limits<double>::infinity();

// --- the arithmetic -----------------------------------------------------------------

template <int... L>
void check_residues(long long X, std::integer_sequence<int, L...>) {
  (
      [&] {
        const int r = crt::residue<L>(X);
        const long long m = crt::modulus(L);
        EXPECT_GE(r, -128);
        EXPECT_LE(r, 127);
        EXPECT_EQ(((X - r) % m + m) % m, 0) << "X = " << X << " modulus " << m;
      }(),
      ...);
}

TEST(EmulatedFP64Numerics, ResiduesAreInt8AndCongruent) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<long long> any(-(1LL << 62), 1LL << 62);
  for (long long X : {0LL, 1LL, -1LL, 127LL, 128LL, -128LL, 255LL, 256LL, -256LL, (1LL << 56) - 1, -(1LL << 56),
                      (1LL << 57) + 1, -(1LL << 57) - 1, (1LL << 62), -(1LL << 62)})
    check_residues(X, std::make_integer_sequence<int, crt::max_moduli>{});
  for (int t = 0; t < 20000; ++t) check_residues(any(gen), std::make_integer_sequence<int, crt::max_moduli>{});
}

// The residues' remainder by multiplication, (ceil(2^32/m) t mod 2^32) m / 2^32, is t mod m for
// every t the byte dot products can reach (< 2^19) and beyond, for every modulus.
template <int... L>
void check_remainders(std::integer_sequence<int, L...>) {
  (
      [&] {
        using K = crt::ResidueConstants<L>;
        if constexpr (K::m != 256) {
          unsigned wrong = 0;
          for (uint32_t t = 0; t < (1u << 21); ++t) wrong += crt::mul_high(K::reciprocal * t, K::m) != t % K::m;
          EXPECT_EQ(wrong, 0u) << "modulus " << K::m;
          EXPECT_LT(K::addend, K::m);
        }
      }(),
      ...);
}

TEST(EmulatedFP64Numerics, RemainderByMultiplicationIsExact) {
  check_remainders(std::make_integer_sequence<int, crt::max_moduli>{});
}

TEST(EmulatedFP64Numerics, ModuliArePairwiseCoprimeAndNormBitsFitTheirProduct) {
  for (int a = 0; a < crt::max_moduli; ++a)
    for (int b = 0; b < a; ++b) {
      int x = crt::modulus(a), y = crt::modulus(b);
      while (y != 0) {
        const int t = x % y;
        x = y;
        y = t;
      }
      EXPECT_EQ(x, 1) << crt::modulus(a) << " and " << crt::modulus(b);
    }
  double log2_m = 0.0;
  for (int n = 1; n <= crt::max_moduli; ++n) {
    log2_m += std::log2(static_cast<double>(crt::modulus(n - 1)));
    if (n < crt::min_moduli) continue;
    const int beta = crt::norm_bits(n);
    EXPECT_LE(2 * beta + 2, log2_m) << n << " moduli";  // (2^beta + sqrt(k)/2)^2 < M / 4
    EXPECT_GT(2 * (beta + 1) + 2, log2_m) << n << " moduli: a bit left unused";
  }
  EXPECT_LT(log2_m, 126.0);  // the reconstruction's 128-bit arithmetic
}

TEST(EmulatedFP64Numerics, ScaledIntegerRoundsHalfToEven) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> s(-20, 61);
  for (int t = 0; t < 20000; ++t) {
    const double x = u(gen);
    const int sc = s(gen);
    const long double exact = std::ldexp(static_cast<long double>(x), sc);  // 64-bit significand: exact
    const long long want = static_cast<long long>(std::nearbyintl(exact));   // default mode: to nearest even
    EXPECT_EQ(crt::scaled_integer(x, sc), want) << x << " * 2^" << sc;
  }
  EXPECT_EQ(crt::scaled_integer(2.5, 0), 2);
  EXPECT_EQ(crt::scaled_integer(3.5, 0), 4);
  EXPECT_EQ(crt::scaled_integer(-2.5, 0), -2);
  EXPECT_EQ(crt::scaled_integer(0x1p-1074, 1074), 1);  // the smallest subnormal
  EXPECT_EQ(crt::scaled_integer(0x1p-1074, 1072), 0);
}

// The GPU's split takes the scaled integers and the statistics' fixed point by FP64
// multiplication (crt::pow2_pair); they must be the bit forms' numbers for every finite value,
// row exponent and scale a row can have: subnormals, ties, scales past FP64's exponent range.
TEST(EmulatedFP64Numerics, MultiplicationFormsAreTheBitForms) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> any_exponent(-1100, 1024);
  const auto check = [](double x, int row_exponent, int s) {
    uint64_t squares = 0, magnitudes = 0, squares_fp = 0, magnitudes_fp = 0;
    crt::add_to_sums(x, row_exponent, squares, magnitudes);
    crt::add_to_sums(x, crt::pow2_pair(crt::stat_fraction_bits - row_exponent), squares_fp, magnitudes_fp);
    EXPECT_EQ(magnitudes_fp, magnitudes) << x << " in a row of E = " << row_exponent;
    EXPECT_EQ(squares_fp, squares) << x << " in a row of E = " << row_exponent;
    EXPECT_EQ(crt::scaled_integer(x, crt::pow2_pair(s)), crt::scaled_integer(x, s)) << x << " * 2^" << s;
  };
  for (int t = 0; t < 200000; ++t) {
    uint64_t bits = gen();
    bits &= ~(uint64_t(0x7FF) << 52);
    bits |= static_cast<uint64_t>(t % 7 == 0 ? 0 : (gen() % 2046) + 1) << 52;  // finite; a seventh subnormal
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (t % 11 == 0) x = std::ldexp(std::nearbyint(std::ldexp(x, 3)) + 0.5, any_exponent(gen));  // ties
    if (!std::isfinite(x) || x == 0.0) continue;
    const int e = crt::value_exponent(x);
    const int row_exponent = std::min(1024, e + static_cast<int>(gen() % (t % 3 == 0 ? 2000 : 70)));
    // The row's scale puts its norm near 2^beta <= 2^61: |x 2^s| <= 2^62, s down to 61 - 1024 - 9.
    const int s_max = 62 - e, s_min = std::max(-1100, s_max - 1200);
    check(x, row_exponent, s_min + static_cast<int>(gen() % static_cast<uint64_t>(s_max - s_min + 1)));
  }
  check(0x1p-1074, -1073, 1074);
  check(0x1p-1074, -1073, 1073);  // 1/2: ties to even, 0
  check(-0x3p-1075, -1072, 1075);  // -3/2: -2
  check(0x1p-1074, -1073, 1135);
  check(0x1p1023, 1024, -961);
  check(-0x1.fffffffffffffp1023, 1024, -962);
}

TEST(EmulatedFP64Numerics, RowScaleBoundsTheScaledNorm) {
  std::mt19937_64 gen(test::fresh_seed());
  for (Fill64 fill : {Fill64::uniform, Fill64::normal, Fill64::wide})
    for (index_t k : {1, 3, 100, 4096}) {
      const Matrix64 x = test::random_matrix64(k, 8, gen(), fill);
      const OperandRows64 rows{x.ptr(), 8, k, x.ld, 1};  // columns of x as rows
      const test::DirectRows d = test::direct_rows(rows, 15);
      for (index_t r = 0; r < 8; ++r) {
        long double norm2 = 0.0L, scaled2 = 0.0L;
        for (index_t p = 0; p < k; ++p) {
          const long double X = static_cast<long double>(crt::scaled_integer(rows(r, p), d.scale[r]));
          scaled2 += X * X;
          norm2 += std::ldexp(static_cast<long double>(rows(r, p)), d.scale[r]) *
                   std::ldexp(static_cast<long double>(rows(r, p)), d.scale[r]);
        }
        const long double beta = std::ldexp(1.0L, crt::norm_bits(15));
        EXPECT_LE(std::sqrt(norm2), beta) << test::fill_name(fill) << " k=" << k;
        EXPECT_LE(std::sqrt(scaled2), beta + std::sqrt(static_cast<long double>(k)) / 2) << test::fill_name(fill);
        EXPECT_GT(std::sqrt(norm2), beta / 4) << test::fill_name(fill) << " k=" << k << ": bits left unused";
      }
    }
}

template <class F, int... L>
void for_each_modulus(F&& f, std::integer_sequence<int, L...>) {
  (f(std::integral_constant<int, L>{}), ...);
}

// Any C' with |C'| < M / 4, given by residues P_l = C' + t m_l (t random,
// |P_l| < 2^31), comes back as C' rounded to double.
TEST(EmulatedFP64Numerics, ReconstructionIsExact) {
  std::mt19937_64 gen(test::fresh_seed());
  for (int moduli = crt::min_moduli; moduli <= crt::max_moduli; ++moduli) {
    const crt::Constants c = crt::make_constants(moduli);
    unsigned __int128 M = 1;
    for (int l = 0; l < moduli; ++l) M *= static_cast<unsigned>(crt::modulus(l));
    const auto quarter = static_cast<__int128>(M / 4);
    for (int t = 0; t < 3000; ++t) {
      __int128 v = (static_cast<__int128>(gen()) << 64 | static_cast<__int128>(gen())) % quarter;
      if (t % 7 == 0) v %= 1000;  // small values too
      if (t == 1) v = quarter - 1;
      if (t == 2) v = -(quarter - 1);
      crt::Accumulator acc;
      const auto one = [&](auto L) {
        constexpr int l = decltype(L)::value;
        if (l >= moduli) return;
        const long long m = crt::modulus(l);
        const long long r = static_cast<long long>(((v % m) + m) % m);
        const long long shift = static_cast<long long>(gen() % 2000000) - 1000000;  // another representative
        crt::accumulate<l>(acc, static_cast<int>(r + shift * m), c);
      };
      for_each_modulus(one, std::make_integer_sequence<int, crt::max_moduli>{});
      const unsigned __int128 mag = v < 0 ? static_cast<unsigned __int128>(-v) : static_cast<unsigned __int128>(v);
      uint32_t limbs[4];
      for (int j = 0; j < 4; ++j) limbs[j] = static_cast<uint32_t>(mag >> (32 * j));
      const double want = (v < 0 ? -1.0 : 1.0) * crt::magnitude_to_double(limbs);
      ASSERT_EQ(test::bits_of(crt::reconstruct(acc, c)), test::bits_of(want == 0.0 ? 0.0 : want))
          << moduli << " moduli, case " << t;
    }
  }
}

TEST(EmulatedFP64Numerics, MagnitudeToDoubleRoundsToNearestEven) {
  // 2^64 + 2^11 is a tie between 2^64 and 2^64 + 2^12: to even, 2^64; one more unit: up.
  const uint32_t tie[4] = {1u << 11, 0, 1, 0};
  EXPECT_EQ(crt::magnitude_to_double(tie), 0x1p64);
  const uint32_t above[4] = {(1u << 11) + 1, 0, 1, 0};
  EXPECT_EQ(crt::magnitude_to_double(above), 0x1p64 + 0x1p12);
  const uint32_t sticky_far[4] = {1, 0, 0, 0x00100000};  // 2^116 + 1: the 1 only in the sticky bit
  EXPECT_EQ(crt::magnitude_to_double(sticky_far), 0x1p116);
  const uint32_t big_tie[4] = {0, 0, 1u << 10, 0x80000000u};  // 2^127 + 2^74: tie, to even
  EXPECT_EQ(crt::magnitude_to_double(big_tie), 0x1p127);
  const uint32_t big_tie_up[4] = {1, 0, 1u << 10, 0x80000000u};  // a sticky 1 breaks the tie upwards
  EXPECT_EQ(crt::magnitude_to_double(big_tie_up), 0x1p127 + 0x1p75);
}

// --- the gemm -------------------------------------------------------------------------

using Case64 = test::Fp64Case;
using Operands64 = test::Fp64Operands;

GemmArgs64 args_of(const Case64& t, Operands64& o) {
  return make_gemm_args("test", t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta,
                        o.c.ptr(), o.c.ld);
}

// The gemm on `o` against the direct 128-bit sum, bit for bit, on every entry.
void check_against_direct_on(const Case64& t, Operands64 o, std::uint64_t seed = 0) {
  const Matrix64 c_in = o.c;
  const GemmArgs64 g = args_of(t, o);
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta, o.c.ptr(),
       o.c.ld);
  const int moduli = crt::moduli_for_calls();
  const test::DirectRows A = test::direct_rows(g.a_rows(), moduli), B = test::direct_rows(g.b_cols(), moduli);
  for (index_t j = 0; j < t.n; ++j)
    for (index_t i = 0; i < t.m; ++i) {
      const double want = test::direct_entry(g, A, B, i, j, c_in(i, j));
      ASSERT_EQ(test::bits_of(o.c(i, j)), test::bits_of(want))
          << t.ta << t.tb << " m=" << t.m << " n=" << t.n << " k=" << t.k << " entry (" << i << ", " << j
          << ") seed " << seed << ": " << o.c(i, j) << " vs " << want;
    }
  for (index_t j = 0; j < t.n; ++j)  // C's padding untouched
    for (index_t i = t.m; i < o.c.ld; ++i) ASSERT_EQ(test::bits_of(o.c(i, j)), test::bits_of(c_in(i, j)));
}

void check_against_direct(const Case64& t) {
  const std::uint64_t seed = test::fresh_seed();
  check_against_direct_on(t, test::fp64_operands(t, seed), seed);
}

TEST(EmulatedFP64Host, AllTransposesOddSizesLeadingDimensionsAlphaBeta) {
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'})
      for (index_t size : {1, 7, 33, 70}) {
        check_against_direct({ta, tb, size, size + 2, size + 5, 1.0, 0.0, 3});
        check_against_direct({ta, tb, size + 1, size, 2 * size + 1, -0.75, 1.5, 0});
      }
}

TEST(EmulatedFP64Host, NormalAndWideInputsMatchTheDirectSum) {
  for (Fill64 fill : {Fill64::normal, Fill64::wide}) {
    Case64 t{'T', 'N', 40, 31, 300, 2.0, -1.0, 1};
    t.fill = fill;
    check_against_direct(t);
  }
}

// Error against exact dot products beside DGEMM's arithmetic (float64
// fused multiply-adds in k order) on the same >= 10^4 entries.
void check_accuracy(Fill64 fill, index_t k) {
  Case64 t{'N', 'N', 112, 96, k, 1.0, 0.0, 0};
  t.fill = fill;
  Operands64 o = test::fp64_operands(t, test::fresh_seed());
  const GemmArgs64 g = args_of(t, o);
  gemm(EmulatedFP64{}, 'N', 'N', t.m, t.n, t.k, 1.0, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, 0.0, o.c.ptr(), o.c.ld);
  const test::DotOperands d = test::dot_operands(g);
  std::vector<double> ours, dgemm, exact;
  for (const test::Entry e : test::sample_entries(t.m, t.n, 20000, 1)) {
    exact.push_back(test::exact_dot(d.a_of(e.i), d.a_step, d.b_of(e.j), d.b_step, k));
    dgemm.push_back(test::fma_dot(d.a_of(e.i), d.a_step, d.b_of(e.j), d.b_step, k));
    ours.push_back(o.c(e.i, e.j));
  }
  ASSERT_GE(exact.size(), 10000u);
  const test::SampleError e_ours = test::sample_error(ours, exact), e_dgemm = test::sample_error(dgemm, exact);
  ::testing::Test::RecordProperty(std::string("rel_fro_") + test::fill_name(fill) + "_k" + std::to_string(k),
                                  std::to_string(e_ours.rel_frobenius));
  EXPECT_LE(e_ours.rel_frobenius, e_dgemm.rel_frobenius)
      << test::fill_name(fill) << " k=" << k << ": EmulatedFP64 " << e_ours.rel_frobenius << ", DGEMM's arithmetic "
      << e_dgemm.rel_frobenius;
  EXPECT_LE(e_ours.max_rel_to_max, e_dgemm.max_rel_to_max)
      << test::fill_name(fill) << " k=" << k << ": EmulatedFP64 " << e_ours.max_rel_to_max << ", DGEMM's arithmetic "
      << e_dgemm.max_rel_to_max;
}

TEST(EmulatedFP64Host, AtLeastAsAccurateAsDgemmOnUniformNormalAndWideInputs) {
  for (Fill64 fill : {Fill64::uniform, Fill64::normal, Fill64::wide})
    for (index_t k : {256, 2048}) check_accuracy(fill, k);
}

// Entries whose row or column holds Inf or NaN are what DGEMM's arithmetic gives.
TEST(EmulatedFP64Host, InfAndNanPropagateAsDgemm) {
  Case64 t{'N', 'T', 9, 8, 20, 1.0, 0.5, 0};
  Operands64 o = test::fp64_operands(t, test::fresh_seed());
  o.a(2, 3) = inf64;
  o.a(5, 0) = nan64;
  o.b(4, 7) = -inf64;  // op(B)(7, 4): column 4
  o.a(7, 1) = inf64;
  o.b(1, 1) = 0.0;  // Inf * 0 in entry (7, 1): NaN
  const Matrix64 c_in = o.c;
  const GemmArgs64 g = args_of(t, o);
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta, o.c.ptr(),
       o.c.ld);
  const test::DotOperands d = test::dot_operands(g);
  for (index_t j = 0; j < t.n; ++j)
    for (index_t i = 0; i < t.m; ++i) {
      const double c0 = c_in(i, j);
      const double want =
          crt::alpha_beta(numerics::float64_dot(d.a_of(i), d.a_step, d.b_of(j), d.b_step, t.k), t.alpha, t.beta, &c0);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(o.c(i, j))) << i << ", " << j;
      } else if (std::isinf(want)) {
        EXPECT_EQ(o.c(i, j), want) << i << ", " << j;
      }
    }
  EXPECT_TRUE(std::isnan(o.c(5, 0)));
  EXPECT_TRUE(std::isinf(o.c(2, 0)));
}

// Products past FP64's range: DGEMM's Inf (fused multiply-adds: the first
// overflowing product makes the sum Inf, and it stays so, even where the
// exact sum is finite); a large but finite result stays finite.
TEST(EmulatedFP64Host, OverflowAsDgemm) {
  Matrix64 a(2, 3), b(3, 2), c(2, 2);
  a(0, 0) = 1e300; a(0, 1) = 1e300; a(0, 2) = 1.0;   // row 0: products overflow, sum +Inf
  a(1, 0) = 1e300; a(1, 1) = -1e300; a(1, 2) = 1.0;  // row 1: exact sum 1, DGEMM's Inf
  b(0, 0) = 1e10; b(1, 0) = 1e10; b(2, 0) = 1.0;
  b(0, 1) = 1e-300; b(1, 1) = 1e-300; b(2, 1) = 1e-300;  // column 1: finite products
  gemm(EmulatedFP64{}, 'N', 'N', 2, 2, 3, 1.0, a.ptr(), 2, b.ptr(), 3, 0.0, c.ptr(), 2);
  for (index_t i = 0; i < 2; ++i)  // the overflowing entries are DGEMM's arithmetic, bit for bit
    EXPECT_EQ(test::bits_of(c(i, 0)), test::bits_of(test::fma_dot(a.ptr() + i, 2, b.ptr(), 1, 3))) << i;
  EXPECT_EQ(c(0, 0), inf64);
  EXPECT_EQ(c(1, 0), inf64);
  EXPECT_DOUBLE_EQ(c(0, 1), 2.0);
  // alpha pushes a finite sum past the range: Inf, as DGEMM's alpha * sum.
  Matrix64 d(1, 1);
  const double one = 1e300, two = 2.0;
  gemm(EmulatedFP64{}, 'N', 'N', 1, 1, 1, 1e10, &one, 1, &two, 1, 0.0, d.ptr(), 1);
  EXPECT_EQ(d(0, 0), inf64);
}

TEST(EmulatedFP64Host, SubnormalInputsAndResults) {
  Case64 t{'N', 'N', 20, 20, 64, 1.0, 0.0, 0};
  Operands64 o = test::fp64_operands(t, test::fresh_seed());
  for (double& v : o.a.data) v = std::ldexp(v, -1000);  // products near 2^-1000 2^-70: subnormal results
  for (double& v : o.b.data) v = std::ldexp(v, -70);
  o.a(3, 3) = 0x1p-1074;  // the smallest subnormal as an input
  const GemmArgs64 g = args_of(t, o);
  gemm(EmulatedFP64{}, 'N', 'N', t.m, t.n, t.k, 1.0, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, 0.0, o.c.ptr(), o.c.ld);
  const test::DotOperands d = test::dot_operands(g);
  // The exact sums from operands scaled up by 2^1000 (error-free products
  // need normal ones), scaled back with one rounding.
  std::vector<double> a_up(o.a.data.size());
  for (std::size_t q = 0; q < a_up.size(); ++q) a_up[q] = std::ldexp(o.a.data[q], 1000);
  for (index_t j = 0; j < t.n; ++j)
    for (index_t i = 0; i < t.m; ++i) {
      const double exact =
          std::ldexp(test::exact_dot(a_up.data() + i, o.a.ld, d.b_of(j), d.b_step, t.k), -1000);
      const double dgemm = test::fma_dot(d.a_of(i), d.a_step, d.b_of(j), d.b_step, t.k);
      // Both round the small result to the subnormal grid; ours once, at the end.
      EXPECT_LE(std::fabs(o.c(i, j) - exact), std::fabs(dgemm - exact) + 0x1p-1074) << i << ", " << j;
    }
}

// Rows spreading over 60 binades are too wide for the moduli: their entries
// are the float64 sums, bit for bit; the other rows still use the moduli (one
// row of 160 stays below the hand-off's share of C).
TEST(EmulatedFP64Host, WideRowsAreFloat64Sums) {
  Case64 t{'T', 'N', 160, 12, 500, 1.0, 0.0, 0};
  Operands64 o = test::fp64_operands(t, test::fresh_seed());
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> e(-30, 30);
  for (index_t p = 0; p < t.k; ++p) o.a(p, 5) = std::ldexp(o.a(p, 5), e(gen));  // row 5 of op(A) = column 5 of A
  const GemmArgs64 g = args_of(t, o);
  const test::DirectRows A = test::direct_rows(g.a_rows(), crt::moduli_for_calls());
  ASSERT_TRUE(A.float64[5]);
  ASSERT_FALSE(A.float64[4]);
  ASSERT_FALSE(crt::hands_off_to_dgemm(t.m, t.n, A.flagged, 0));
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, 1.0, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, 0.0, o.c.ptr(), o.c.ld);
  const test::DotOperands d = test::dot_operands(g);
  for (index_t j = 0; j < t.n; ++j)
    EXPECT_EQ(test::bits_of(o.c(5, j)),
              test::bits_of(numerics::float64_dot(d.a_of(5), d.a_step, d.b_of(j), d.b_step, t.k)));
}

// The float64 sums (blocks of 32 fused multiply-adds, compensated total)
// against DGEMM's one chain of fused multiply-adds, on long wide rows.
TEST(EmulatedFP64Host, Float64SumsAtLeastAsAccurateAsOneChain) {
  const index_t k = 20000;
  std::vector<double> ours, chain, exact;
  for (int t = 0; t < 200; ++t) {
    const Matrix64 a = test::random_matrix64(k, 1, test::fresh_seed(), t % 2 ? Fill64::wide : Fill64::uniform);
    const Matrix64 b = test::random_matrix64(k, 1, test::fresh_seed(), t % 2 ? Fill64::wide : Fill64::uniform);
    ours.push_back(numerics::float64_dot(a.ptr(), 1, b.ptr(), 1, k));
    chain.push_back(test::fma_dot(a.ptr(), 1, b.ptr(), 1, k));
    exact.push_back(test::exact_dot(a.ptr(), 1, b.ptr(), 1, k));
  }
  EXPECT_LE(test::sample_error(ours, exact).rel_frobenius, test::sample_error(chain, exact).rel_frobenius);
  EXPECT_LT(test::sample_error(ours, exact).rel_frobenius, 2e-16);
}

TEST(EmulatedFP64Host, BetaZeroNeverReadsCAlphaZeroNeverReadsAB) {
  Matrix64 c(3, 3);
  for (double& v : c.data) v = nan64;
  const Matrix64 a = test::random_matrix64(3, 4, 1), b = test::random_matrix64(4, 3, 2);
  gemm(EmulatedFP64{}, 'N', 'N', 3, 3, 4, 1.0, a.ptr(), 3, b.ptr(), 4, 0.0, c.ptr(), 3);
  for (double v : c.data) EXPECT_FALSE(std::isnan(v));
  Matrix64 c2(2, 2);
  c2.data = {1.0, 2.0, 3.0, 4.0};
  gemm(EmulatedFP64{}, 'N', 'N', 2, 2, 5, 0.0, nullptr, 2, nullptr, 5, 2.0, c2.ptr(), 2);
  EXPECT_EQ(c2.data, (std::vector<double>{2.0, 4.0, 6.0, 8.0}));
  gemm(EmulatedFP64{}, 'N', 'N', 2, 2, 0, 1.0, nullptr, 2, nullptr, 1, 0.0, c2.ptr(), 2);
  EXPECT_EQ(c2.data, (std::vector<double>{0.0, 0.0, 0.0, 0.0}));
}

TEST(EmulatedFP64Host, ZeroRowsAndDepthOne) {
  Matrix64 a(3, 1), b(1, 2), c(3, 2);
  a.data = {0.0, -2.0, 0.5};
  b.data = {3.0, -0.0};
  gemm(EmulatedFP64{}, 'N', 'N', 3, 2, 1, 1.0, a.ptr(), 3, b.ptr(), 1, 0.0, c.ptr(), 3);
  EXPECT_EQ(c.data, (std::vector<double>{0.0, -6.0, 1.5, 0.0, 0.0, 0.0}));
}

// k beyond the moduli's exact int32 sums: the float64 sums.
TEST(EmulatedFP64Host, DepthBeyondExactSumsIsFloat64) {
  const index_t k = crt::max_depth + 5;
  const Matrix64 a = test::random_matrix64(2, k, test::fresh_seed()), b = test::random_matrix64(k, 1, test::fresh_seed());
  Matrix64 c(2, 1);
  gemm(EmulatedFP64{}, 'N', 'N', 2, 1, k, 1.0, a.ptr(), 2, b.ptr(), k, 0.0, c.ptr(), 2);
  EXPECT_EQ(c(0, 0), numerics::float64_dot(a.ptr(), 2, b.ptr(), 1, k));
  EXPECT_EQ(c(1, 0), numerics::float64_dot(a.ptr() + 1, 2, b.ptr(), 1, k));
}

TEST(EmulatedFP64Host, BadArgumentsThrowAndLeaveCUntouched) {
  Matrix64 a = test::random_matrix64(4, 4, 1), b = test::random_matrix64(4, 4, 2), c = test::random_matrix64(4, 4, 3);
  const std::vector<double> before = c.data;
  const auto call = [&](char ta, index_t lda, const double* bp, double* cp) {
    gemm(EmulatedFP64{}, ta, 'N', 4, 4, 4, 1.0, a.ptr(), lda, bp, 4, 0.0, cp, 4);
  };
  EXPECT_THROW(call('X', 4, b.ptr(), c.ptr()), invalid_argument);
  EXPECT_THROW(call('N', 3, b.ptr(), c.ptr()), invalid_argument);
  EXPECT_THROW(call('N', 4, nullptr, c.ptr()), invalid_argument);
  EXPECT_THROW(call('N', 4, b.ptr(), a.ptr()), invalid_argument);  // C aliases A
  EXPECT_EQ(c.data, before);
  try {
    call('N', 3, b.ptr(), c.ptr());
  } catch (const invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lda"), std::string::npos) << e.what();
  }
}

// Value p of a wide row: one near 2^30, the others near 2^-30 (magnitudes in [1, 2) times
// those): rho^2 ~ k > 16 for any k >= 17, whatever the fill drew.
double wide_value(double v, index_t p) { return std::ldexp(std::copysign(1.0 + std::fabs(v), v), p == 0 ? 30 : -30); }

// EGEMM_LOG=debug: the moduli and the float64 rows, or the hand-off, as the CUDA backend logs them.
std::string debug_log_of(index_t m, index_t n) {
  Matrix64 a = test::random_matrix64(m, 64, test::fresh_seed()), b = test::random_matrix64(64, n, test::fresh_seed());
  for (index_t p = 0; p < 64; ++p) a(2, p) = wide_value(a(2, p), p);  // a wide row
  b(3, 4) = nan64;
  Matrix64 c(m, n);
  detail::force_debug_log(1);  // the environment is read once per process
  ::testing::internal::CaptureStderr();
  gemm(EmulatedFP64{}, 'N', 'N', m, n, 64, 1.0, a.ptr(), m, b.ptr(), 64, 0.0, c.ptr(), m);
  const std::string text = ::testing::internal::GetCapturedStderr();
  detail::force_debug_log(-1);
  return text;
}

TEST(EmulatedFP64Host, DebugLogSaysWhatRan) {
  const std::string kept = debug_log_of(300, 260);  // 560 of 78000 entries: below the hand-off's 1/128
  EXPECT_NE(kept.find("host EmulatedFP64 NN m=300 n=260 k=64 -> 15 moduli, float64 for 1 wide rows of op(A), 0 wide "
                      "columns of op(B), 1 with Inf/NaN"),
            std::string::npos)
      << kept;
  const std::string handed = debug_log_of(6, 5);  // the sample (every row) already hands off
  EXPECT_NE(handed.find("host EmulatedFP64 NN m=6 n=5 k=64 -> native_fp64 (1 of 6 sampled rows of op(A), 1 of 5 "
                        "sampled columns of op(B) flagged: handed off on the sample)"),
            std::string::npos)
      << handed;
  const std::string counted = debug_log_of(200, 200);  // 399 of 40000: past 1/128, not 2/128 (the sample's)
  EXPECT_NE(counted.find("host EmulatedFP64 NN m=200 n=200 k=64 -> native_fp64 (1 wide rows of op(A), 0 wide columns "
                         "of op(B), 1 with Inf/NaN: handed off)"),
            std::string::npos)
      << counted;
}

// --- the hand-off to DGEMM ----------------------------------------------------------------

TEST(EmulatedFP64HandOff, TheRuleOnItsEdges) {
  EXPECT_EQ(crt::float64_entries(100, 50, 0, 0), 0);
  EXPECT_EQ(crt::float64_entries(100, 50, 2, 3), 2 * 50 + 3 * 100 - 6);
  EXPECT_EQ(crt::float64_entries(100, 50, 100, 50), 100 * 50);  // everything flagged: C once, not twice
  EXPECT_FALSE(crt::hands_off_to_dgemm(4096, 4096, 0, 0));
  // 4096^2 / 128 = 131072 entries: 32 rows of op(A) exactly stay, one more entry hands off.
  EXPECT_FALSE(crt::hands_off_to_dgemm(4096, 4096, 32, 0));
  EXPECT_TRUE(crt::hands_off_to_dgemm(4096, 4096, 33, 0));
  EXPECT_FALSE(crt::hands_off_to_dgemm(4096, 4096, 0, 32));
  EXPECT_TRUE(crt::hands_off_to_dgemm(4096, 4096, 16, 17));   // 16 4096 + 17 4096 - 272 > 131072
  EXPECT_FALSE(crt::hands_off_to_dgemm(4096, 4096, 16, 16));  // 131072 - 256
  EXPECT_TRUE(crt::hands_off_to_dgemm(1, 1, 1, 0));           // a single entry, flagged
  EXPECT_TRUE(crt::hands_off_to_dgemm(100, 100, 1, 0));       // fewer than 128 rows: any flag hands off
  EXPECT_TRUE(crt::hands_off_to_dgemm(8192, 8192, 8192, 8192));
  // The largest extents the CUDA backend takes (65535 tiles of 64) without overflow.
  const long long most = 65535LL * 64;
  EXPECT_TRUE(crt::hands_off_to_dgemm(most, most, most, most));
  EXPECT_FALSE(crt::hands_off_to_dgemm(most, most, most / 128, 0));
  // max_kept_flagged_rows: the most rows of one operand a kept call can have, whatever the other holds.
  for (const long long rows : {1LL, 127LL, 128LL, 200LL, 4096LL, 8193LL, most}) {
    const long long kept = crt::max_kept_flagged_rows(rows);
    for (const long long other : {1LL, 300LL, 8192LL}) {
      EXPECT_FALSE(crt::hands_off_to_dgemm(rows, other, kept, 0)) << rows << " x " << other;
      EXPECT_TRUE(crt::hands_off_to_dgemm(rows, other, kept + 1, 0)) << rows << " x " << other;
      EXPECT_TRUE(crt::hands_off_to_dgemm(other, rows, 0, kept + 1)) << other << " x " << rows;
    }
  }
}

// Every entry the float64 sum (the host's DGEMM), with alpha and beta.
bool all_float64_sums(const Case64& t, const Operands64& before, const Operands64& after) {
  Operands64 o = before;
  const GemmArgs64 g = args_of(t, o);
  const test::DotOperands d = test::dot_operands(g);
  for (index_t j = 0; j < t.n; ++j)
    for (index_t i = 0; i < t.m; ++i) {
      const double c0 = before.c(i, j);
      const double want =
          crt::alpha_beta(numerics::float64_dot(d.a_of(i), d.a_step, d.b_of(j), d.b_step, t.k), t.alpha, t.beta, &c0);
      if (test::bits_of(after.c(i, j)) != test::bits_of(want)) return false;
    }
  return true;
}

// Wide inputs hand off (every row flagged): every entry is the host's DGEMM;
// uniform and normal ones keep the moduli (no row flagged), whose result is
// not the float64 sums'. Both against the direct sum, which follows the rule.
TEST(EmulatedFP64HandOff, WideInputsHandOffUniformAndNormalOnesDoNot) {
  for (const Fill64 fill : {Fill64::wide, Fill64::uniform, Fill64::normal}) {
    Case64 t{'N', 'T', 150, 140, 200, -0.5, 0.75, 1};
    t.fill = fill;
    Operands64 o = test::fp64_operands(t, test::fresh_seed());
    const Operands64 before = o;
    const GemmArgs64 g = args_of(t, o);
    const int moduli = crt::moduli_for_calls();
    const test::DirectRows A = test::direct_rows(g.a_rows(), moduli), B = test::direct_rows(g.b_cols(), moduli);
    const bool wide = fill == Fill64::wide;
    EXPECT_EQ(crt::hands_off_to_dgemm(t.m, t.n, A.flagged, B.flagged), wide) << test::fill_name(fill);
    if (wide) EXPECT_GT(A.flagged, t.m / 2);
    gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta, o.c.ptr(),
         o.c.ld);
    EXPECT_EQ(all_float64_sums(t, before, o), wide) << test::fill_name(fill);
  }
}

// A few wide rows and columns (below the share) keep the moduli for the rest;
// one more row past it hands the call off.
TEST(EmulatedFP64HandOff, AFewWideRowsStayEmulatedMoreHandOff) {
  Case64 t{'N', 'N', 384, 256, 96, 1.0, 0.0, 0};
  Operands64 o = test::fp64_operands(t, test::fresh_seed());
  const auto widen_row = [&](index_t i) {
    for (index_t p = 0; p < t.k; ++p) o.a(i, p) = wide_value(o.a(i, p), p);
  };
  // 1 row (256 entries) and 1 column (384) of 98304: 639 < 768 = 98304 / 128.
  widen_row(7);
  for (index_t p = 0; p < t.k; ++p) o.b(p, 200) = wide_value(o.b(p, 200), p);
  {
    Operands64 run = o;
    const GemmArgs64 g = args_of(t, run);
    const test::DirectRows A = test::direct_rows(g.a_rows(), crt::moduli_for_calls()),
                             B = test::direct_rows(g.b_cols(), crt::moduli_for_calls());
    ASSERT_EQ(A.flagged, 1);
    ASSERT_EQ(B.flagged, 1);
    check_against_direct_on(t, o);
    gemm(EmulatedFP64{}, 'N', 'N', t.m, t.n, t.k, 1.0, run.a.ptr(), run.a.ld, run.b.ptr(), run.b.ld, 0.0, run.c.ptr(),
         run.c.ld);
    EXPECT_FALSE(all_float64_sums(t, o, run));
  }
  widen_row(300);  // 2 256 + 384 - 2 = 894 > 768
  Operands64 run = o;
  gemm(EmulatedFP64{}, 'N', 'N', t.m, t.n, t.k, 1.0, run.a.ptr(), run.a.ld, run.b.ptr(), run.b.ld, 0.0, run.c.ptr(),
       run.c.ld);
  EXPECT_TRUE(all_float64_sums(t, o, run));
}

// The sample: groups of 4 rows, every sample_stride-th, ~512 rows whatever the size.
TEST(EmulatedFP64HandOff, TheSampleOnItsEdges) {
  EXPECT_EQ(crt::sample_stride(1), 1);
  EXPECT_EQ(crt::sample_stride(1023), 1);
  EXPECT_EQ(crt::sample_stride(1024), 2);
  EXPECT_EQ(crt::sample_stride(4096), 8);
  EXPECT_EQ(crt::sample_size(1023), 1023);  // below 2 x 512 rows: every row
  EXPECT_EQ(crt::sample_size(4096), 512);
  EXPECT_EQ(crt::sample_size(16384), 512);
  EXPECT_TRUE(crt::in_sample(3, 4096));
  EXPECT_FALSE(crt::in_sample(4, 4096));
  EXPECT_FALSE(crt::in_sample(31, 4096));
  EXPECT_TRUE(crt::in_sample(32, 4096));  // group 8
  for (long long rows : {1LL, 3LL, 5LL, 511LL, 1024LL, 1027LL, 1030LL, 2049LL, 4095LL, 5003LL, 65536LL}) {
    long long members = 0;
    for (long long r = 0; r < rows; ++r) members += crt::in_sample(r, rows) ? 1 : 0;
    EXPECT_EQ(crt::sample_size(rows), members) << rows;
    EXPECT_LT(crt::sample_size(rows), 2 * crt::sample_target_rows + crt::sample_group) << rows;
  }
  // 512 x 512 sampled: 9 flagged rows of op(A)'s sample are 4608 entries, above 2 / 128 of 262144.
  EXPECT_FALSE(crt::sample_hands_off(4096, 4096, 8, 0));
  EXPECT_TRUE(crt::sample_hands_off(4096, 4096, 9, 0));
  EXPECT_TRUE(crt::sample_hands_off(4096, 4096, 6, 10));  // the suite's wide inputs at 4096^3 (3% of rows flagged)
  EXPECT_FALSE(crt::sample_hands_off(8192, 8192, 3, 2));  // and at 8192^3 (0.3%): the full counts decide
  // Where the samples are the whole operands, the sample's rule implies the full counts' (twice the share).
  for (long long m : {1LL, 6LL, 100LL, 1023LL})
    for (long long n : {1LL, 5LL, 260LL, 1000LL})
      for (long long fa : {0LL, 1LL, 2LL, m / 64, m / 3, m})
        for (long long fb : {0LL, 1LL, n / 64, n})
          if (crt::sample_hands_off(m, n, fa, fb)) EXPECT_TRUE(crt::hands_off_to_dgemm(m, n, fa, fb)) << m << " " << n;
  EXPECT_TRUE(crt::call_hands_off(4096, 4096, 9, 0, 9, 0));    // the sample's, though 9 of 4096 rows stay
  EXPECT_TRUE(crt::call_hands_off(4096, 4096, 0, 0, 33, 0));   // the full counts'
  EXPECT_FALSE(crt::call_hands_off(4096, 4096, 8, 0, 32, 0));  // neither
  EXPECT_TRUE(crt::operand_hands_off(4096, 33));
  EXPECT_FALSE(crt::operand_hands_off(4096, 32));
}

// The host oracle takes the sample's branch: wide rows inside the sample (stride 4:
// rows 0-3, 16-19, 32-35, ... of 2048) hand the call off where as many outside it do
// not, and more outside it hand off on the full count.
TEST(EmulatedFP64HandOff, TheOracleHandsOffOnTheSampleFirst) {
  const Case64 t{'N', 'N', 2048, 64, 32, 1.0, 0.0, 0};
  const Operands64 base = test::fp64_operands(t, test::fresh_seed());
  const auto widened = [&](std::initializer_list<index_t> rows) {
    Operands64 o = base;
    for (index_t i : rows)
      for (index_t p = 0; p < t.k; ++p) o.a(i, p) = wide_value(o.a(i, p), p);
    return o;
  };
  struct Variant {
    const char* what;
    Operands64 o;
    index_t sampled_flagged, flagged;
    bool hands_off;
  };
  const Variant variants[] = {
      {"9 rows in the sample", widened({0, 1, 2, 3, 16, 17, 18, 19, 32}), 9, 9, true},
      {"9 rows outside it", widened({4, 5, 6, 7, 8, 9, 10, 11, 12}), 0, 9, false},
      {"17 rows outside it", widened({4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 24}), 0, 17, true}};
  for (const Variant& v : variants) {
    Operands64 run = v.o;
    const GemmArgs64 g = args_of(t, run);
    const test::DirectRows A = test::direct_rows(g.a_rows(), crt::moduli_for_calls()),
                           B = test::direct_rows(g.b_cols(), crt::moduli_for_calls());
    ASSERT_EQ(A.sampled_flagged, v.sampled_flagged) << v.what;
    ASSERT_EQ(A.flagged, v.flagged) << v.what;
    ASSERT_EQ(B.flagged, 0) << v.what;
    EXPECT_FALSE(crt::hands_off_to_dgemm(t.m, t.n, 9, 0));  // 9 rows alone stay below the full count's share
    EXPECT_EQ(test::hands_off(g, A, B), v.hands_off) << v.what;
    gemm(EmulatedFP64{}, 'N', 'N', t.m, t.n, t.k, 1.0, run.a.ptr(), run.a.ld, run.b.ptr(), run.b.ld, 0.0, run.c.ptr(),
         run.c.ld);
    EXPECT_EQ(all_float64_sums(t, v.o, run), v.hands_off) << v.what;
    if (!v.hands_off) check_against_direct_on(t, v.o);
  }
}

TEST(EmulatedFP64Host, TraitsAndNames) {
  EXPECT_STREQ(policy_name(PolicyId::emulated_fp64), "EmulatedFP64");
  static_assert(std::is_same_v<policy_traits<EmulatedFP64>::value_type, double>);
  static_assert(std::is_same_v<policy_traits<EmulatedFP32>::value_type, float>);
  static_assert(is_policy_for_v<EmulatedFP64, double> && !is_policy_for_v<EmulatedFP64, float>);
  static_assert(is_policy_for_v<Int8Slices, float> && !is_policy_for_v<Int8Slices, double>);
  static_assert(std::tuple_size_v<all_fp64_policies> == 1);
  EXPECT_FALSE(emulated_fp64_uses_tensor_cores(16, 16, 16));  // tiny: DGEMM, or no GPU
}

}  // namespace
}  // namespace egemm
