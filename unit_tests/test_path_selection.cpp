// EmulatedFP32's per-call path choice and the TF32 split it can switch to.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "egemm/gemm.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/reference.hpp"
#include "support/matrices.hpp"

namespace egemm {
namespace {

using test::Matrix;

TEST(Tf32, RoundingKeepsTenMantissaBitsToNearestEven) {
  using numerics::round_to_tf32;
  EXPECT_EQ(round_to_tf32(1.0f), 1.0f);
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-11f), 1.0f);                 // tie, even stays
  EXPECT_EQ(round_to_tf32(1.0f + 0x1p-10f + 0x1p-11f), 1.0f + 0x1p-9f);  // tie, odd rounds up
  EXPECT_EQ(round_to_tf32(1.0f + 0x1.8p-11f), 1.0f + 0x1p-10f);
  EXPECT_TRUE(std::isinf(round_to_tf32(std::numeric_limits<float>::max())));
  EXPECT_EQ(round_to_tf32(numerics::tf32_max_finite), numerics::tf32_max_finite);
  EXPECT_TRUE(std::isnan(round_to_tf32(std::nanf(""))));
}

TEST(Tf32, SplitCarries22BitsAcrossTheWholeExponentRange) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> exp(-110, 120);  // small stays FP32-normal
  double worst = 0.0;
  for (int i = 0; i < 200000; ++i) {
    const float x = (i & 1 ? -1.0f : 1.0f) * std::ldexp(mant(gen), exp(gen));
    const numerics::Tf32Pieces p = numerics::split_to_tf32(x);
    EXPECT_EQ(numerics::float_bits(p.big) & 0x1fffu, 0u);
    EXPECT_EQ(numerics::float_bits(p.small) & 0x1fffu, 0u);
    worst = std::max(worst, std::fabs(x - (static_cast<double>(p.big) + p.small)) / std::fabs(x));
  }
  EXPECT_LE(worst, 0x1p-22);
  EXPECT_GT(worst, 0x1p-24);
}

TEST(PathSelection, RowRangesDecideThePath) {
  EXPECT_TRUE(fits_fp16_scaled({1.0f, 0x1p-28f}));
  EXPECT_FALSE(fits_fp16_scaled({1.0f, 0x1p-30f}));
  EXPECT_TRUE(fits_fp16_scaled({1e30f, 1e30f * 0x1p-28f}));  // the spread matters, not the magnitude
  EXPECT_TRUE(fits_fp16_scaled({}));                          // an all-zero row
  EXPECT_TRUE(fits_tf32({numerics::tf32_max_finite, 1.0f}));
  EXPECT_FALSE(fits_tf32({std::numeric_limits<float>::max(), 1.0f}));
  EXPECT_TRUE(fits_tf32({0x1p-112f, 0x1p-140f}));  // tiny elements under a large enough maximum
  EXPECT_FALSE(fits_tf32({0x1p-113f, 0x1p-113f}));  // a row below 2^-112: TF32's pieces would lose bits
  EXPECT_FALSE(fits_tf32({0x1p-130f, 0x1p-140f}));  // FP32 subnormals
  EXPECT_TRUE(fits_tf32({}));                       // an all-zero row
}

struct PathCase {
  Matrix a, b;
};

PathCase uniform_case() {
  return {test::random_matrix(20, 30, test::fresh_seed()), test::random_matrix(30, 10, test::fresh_seed())};
}

EmulationPath path_of(const PathCase& c) {
  return emulated_fp32_path('N', 'N', c.a.rows, c.b.cols, c.a.cols, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld);
}

// Runs `Policy` directly and EmulatedFP32; equal bits show which path ran.
template <class Policy>
bool emulated_runs(const PathCase& c) {
  Matrix c1(c.a.rows, c.b.cols), c2(c.a.rows, c.b.cols);
  const index_t m = c.a.rows, n = c.b.cols, k = c.a.cols;
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld, 0.0f, c1.ptr(), m);
  detail::gemm_host(policy_traits<Policy>::id,
                    make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld, 0.0f, c2.ptr(), m));
  return c1.data == c2.data;
}

TEST(PathSelection, UniformInputsTakeTheFp16Path) {
  const PathCase c = uniform_case();
  EXPECT_EQ(path_of(c), EmulationPath::fp16_scaled);
}

TEST(PathSelection, RowsOfDifferentScaleStillTakeTheFp16Path) {
  PathCase c = uniform_case();
  for (index_t p = 0; p < c.a.cols; ++p) c.a(3, p) *= 1e30f, c.a(4, p) *= 1e-30f;
  EXPECT_EQ(path_of(c), EmulationPath::fp16_scaled);
}

// EmulatedFP32 on `c` against the float64 reference, entry by entry within
// the a-priori bound; returns C.
Matrix emulated_within_bound(const PathCase& c) {
  const index_t m = c.a.rows, n = c.b.cols, k = c.a.cols;
  Matrix out(m, n);
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, c.a.ptr(), m, c.b.ptr(), k, 0.0f, out.ptr(), m);
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = test::error_bound(PolicyId::emulated_fp32, g, out.data);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, c.a.ptr(), m, c.b.ptr(), k, 0.0f, out.ptr(), m);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) EXPECT_LE(std::fabs(out(i, j) - ref[i + j * m]), bound[i + j * m]) << i << "," << j;
  return out;
}

// float(sum_p a(i, p) b(p, j)) with float64 fused multiply-adds in k order.
float float64_entry(const PathCase& c, index_t i, index_t j) {
  double s = 0.0;
  for (index_t p = 0; p < c.a.cols; ++p) s = std::fma(static_cast<double>(c.a(i, p)), static_cast<double>(c.b(p, j)), s);
  return static_cast<float>(s);
}

TEST(PathSelection, AFewWideRowsStayOnTheFp16PathAndAreRecomputedInFloat64) {
  PathCase c = uniform_case();  // 20 x 30 times 30 x 10: one wide row and one wide column allowed
  c.a(5, 7) = 1e-12f;           // a 2^-40 spread inside row 5 of A
  c.b(11, 3) = 1e-13f;          // and inside column 3 of B
  EXPECT_EQ(path_of(c), EmulationPath::fp16_scaled);
  const Matrix out = emulated_within_bound(c);
  for (index_t j = 0; j < c.b.cols; ++j) EXPECT_EQ(out(5, j), float64_entry(c, 5, j)) << "row 5, column " << j;
  for (index_t i = 0; i < c.a.rows; ++i) EXPECT_EQ(out(i, 3), float64_entry(c, i, 3)) << "row " << i << ", column 3";
}

// The float64 recomputation reads op(A) and op(B) as the transposes say: the
// same wide row and column as above, with A and B stored either way, alpha
// and beta applied once to the recomputed entries.
TEST(PathSelection, WideRowsAreRecomputedFromOpAAndOpBWhateverTheTransposes) {
  PathCase c = uniform_case();
  c.a(5, 7) = 1e-12f;
  c.b(11, 3) = 1e-13f;
  const index_t m = c.a.rows, n = c.b.cols, k = c.a.cols;
  const Matrix at = test::transposed(c.a), bt = test::transposed(c.b), c0 = test::random_matrix(m, n, test::fresh_seed());
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      SCOPED_TRACE(::testing::Message() << ta << tb);
      const Matrix& a = ta == 'N' ? c.a : at;
      const Matrix& b = tb == 'N' ? c.b : bt;
      EXPECT_EQ(emulated_fp32_path(ta, tb, m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::fp16_scaled);
      Matrix out = c0;
      gemm(EmulatedFP32{}, ta, tb, m, n, k, -0.75f, a.ptr(), a.ld, b.ptr(), b.ld, 2.5f, out.ptr(), m);
      for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < m; ++i) {
          if (i != 5 && j != 3) continue;
          EXPECT_EQ(out(i, j), std::fmaf(-0.75f, float64_entry(c, i, j), 2.5f * c0(i, j))) << i << "," << j;
        }
    }
}

// EGEMM_LOG=debug names the host fallback's choice, and the rows it recomputes.
TEST(PathSelection, TheDebugLogSaysWhichPathAndHowManyRowsAreRecomputed) {
  const index_t m = 40, n = 30, k = 50;
  test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  a(3, 4) = 1e-12f;  // one wide row of op(A)
  test::Matrix c(m, n);
  detail::force_debug_log(1);  // the environment is read once per process
  ::testing::internal::CaptureStderr();
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, c.ptr(), c.ld);
  const std::string out = ::testing::internal::GetCapturedStderr();
  detail::force_debug_log(-1);
  EXPECT_NE(out.find("host EmulatedFP32 NN m=40 n=30 k=50 -> fp16_scaled, float64 for 1 wide rows of op(A), 0 wide "
                     "columns of op(B)"),
            std::string::npos)
      << out;
}

// EGEMM_LOG is read once per process, so no call scans the environment:
// changing the variable later changes nothing; the tests' switch does.
TEST(PathSelection, TheDebugLogReadsEgemmLogOnce) {
  const bool at_start = debug_log_enabled();
  const char* exported = std::getenv("EGEMM_LOG");
  const std::string saved = exported != nullptr ? exported : "";
  ::setenv("EGEMM_LOG", at_start ? "off" : "debug", 1);
  EXPECT_EQ(debug_log_enabled(), at_start);
  detail::force_debug_log(at_start ? 0 : 1);
  EXPECT_EQ(debug_log_enabled(), !at_start);
  detail::force_debug_log(-1);
  EXPECT_EQ(debug_log_enabled(), at_start);
  if (exported != nullptr)
    ::setenv("EGEMM_LOG", saved.c_str(), 1);
  else
    ::unsetenv("EGEMM_LOG");
}

TEST(PathSelection, ManyWideRowsTakeTheTf32PathAndStayWithinItsBound) {
  PathCase c = uniform_case();
  c.a(5, 7) = 1e-12f;
  c.a(6, 2) = 1e-12f;  // two wide rows of 20: more than the 1 the FP16 path recomputes
  EXPECT_EQ(path_of(c), EmulationPath::tf32_full_range);
  EXPECT_TRUE(emulated_runs<FullRangeTF32x3>(c));
  (void)emulated_within_bound(c);
}

TEST(PathSelection, TheRecomputedShareIsOneRowIn64) {
  EXPECT_EQ(max_recomputed_rows(1), 1);
  EXPECT_EQ(max_recomputed_rows(127), 1);
  EXPECT_EQ(max_recomputed_rows(128), 2);
  EXPECT_EQ(max_recomputed_rows(8192), 128);
  OperandRangeVerdict a, b;
  for (int r = 0; r < 128; ++r) a.add({1.0f, r < 2 ? 1e-12f : 0.5f});  // 2 wide rows of 128: recomputed
  for (int r = 0; r < 64; ++r) b.add({1.0f, 0.5f});
  EXPECT_EQ(choose_emulation_path(a, b), EmulationPath::fp16_scaled);
  a.add({1.0f, 1e-12f});  // a third of 129: too many
  EXPECT_EQ(choose_emulation_path(a, b), EmulationPath::tf32_full_range);
}

TEST(PathSelection, MagnitudesBeyondTf32TakeNativeFp32) {
  PathCase c = uniform_case();
  c.b(2, 3) = std::numeric_limits<float>::max();  // rounds to Inf in TF32
  EXPECT_EQ(path_of(c), EmulationPath::fp16_scaled);  // scaling covers it while the rows are narrow
  c.a(0, 0) = 1e-20f;
  c.a(1, 0) = 1e-20f;  // and two wide rows, so FP16 is out too
  EXPECT_EQ(path_of(c), EmulationPath::native_fp32);
}

TEST(PathSelection, RowsOfSubnormalsTakeNativeFp32WhereTheFp16PathIsOut) {
  PathCase c = uniform_case();
  for (index_t p = 0; p < c.a.cols; ++p) c.a(4, p) = std::ldexp(c.a(4, p), -130);  // row 4: FP32 subnormals
  EXPECT_EQ(path_of(c), EmulationPath::fp16_scaled);  // scaled by 2^144, exactly: the FP16 path holds it
  (void)emulated_within_bound(c);
  c.a(0, 0) = 1e-20f;
  c.a(1, 0) = 1e-20f;  // two wide rows: FP16 is out, and TF32 would hold row 4 to ~10 bits
  EXPECT_EQ(path_of(c), EmulationPath::native_fp32);
}

// The detector is needed, measured: the docs' adversarial pair (docs/numerics.md
// section 2). Row (1, t) of A with t ~ 2^-39.6 against column (1, 2^40) of B:
// C = 1 + t 2^40 ~ 2.36, and the second term comes entirely from the tiny
// element. In the scaled FP16 pieces (row maximum 1 -> 2^14) t falls below
// FP16's normal range and keeps ~10 bits, so even exact products of the pieces
// give C a 3e-5 relative error (600x FP32's); EmulatedFP32 sees the row's 2^40
// spread and recomputes the row's entries in float64: as accurate as FP32.
TEST(PathSelection, TheDetectorCatchesTheElementsTheFp16PiecesWouldLose) {
  const float t = 1.2345e-12f;
  const double exact = 1.0 + static_cast<double>(t) * 0x1p40;
  const int e = numerics::range_exponent(1.0f);  // the row's scaling
  const numerics::HalfPieces p = numerics::split_to_half(numerics::scale_by_pow2(t, -e), SplitRule::round_scaled_lo);
  const double t_in_pieces =
      std::ldexp(numerics::half_bits_to_float(p.hi) + std::ldexp(numerics::half_bits_to_float(p.lo), -11), e);
  const double pieces_err = std::fabs(1.0 + t_in_pieces * 0x1p40 - exact) / exact;

  Matrix a(1, 2), b(2, 1), c(1, 1), fp32(1, 1);
  a(0, 0) = 1.0f;
  a(0, 1) = t;
  b(0, 0) = 1.0f;
  b(1, 0) = 0x1p40f;
  EXPECT_EQ(emulated_fp32_path('N', 'N', 1, 1, 2, a.ptr(), 1, b.ptr(), 2), EmulationPath::fp16_scaled);
  gemm(EmulatedFP32{}, 'N', 'N', 1, 1, 2, 1.0f, a.ptr(), 1, b.ptr(), 2, 0.0f, c.ptr(), 1);
  gemm(NativeFP32{}, 'N', 'N', 1, 1, 2, 1.0f, a.ptr(), 1, b.ptr(), 2, 0.0f, fp32.ptr(), 1);
  const double chosen_err = std::fabs(c(0, 0) - exact) / exact, fp32_err = std::fabs(fp32(0, 0) - exact) / exact;
  std::printf("[ detector ] C = 1 + t 2^40: relative error with t in scaled FP16 pieces %.2e, EmulatedFP32 %.2e, FP32 %.2e\n",
              pieces_err, chosen_err, fp32_err);
  EXPECT_GT(pieces_err, 1e-5) << "the FP16 pieces should lose t's low bits here";
  EXPECT_LE(chosen_err, std::max(fp32_err, 0x1p-24));
}

}  // namespace
}  // namespace egemm
