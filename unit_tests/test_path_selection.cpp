// EmulatedFP32's per-call path choice and the TF32 split it can switch to.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "egemm/gemm.hpp"
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

TEST(PathSelection, AWideRowTakesTheTf32PathAndStaysWithinItsBound) {
  PathCase c = uniform_case();
  c.a(5, 7) = 1e-12f;  // a 2^-40 spread inside row 5
  EXPECT_EQ(path_of(c), EmulationPath::tf32_full_range);
  const index_t m = c.a.rows, n = c.b.cols, k = c.a.cols;
  Matrix out(m, n);
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, c.a.ptr(), m, c.b.ptr(), k, 0.0f, out.ptr(), m);
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = test::error_bound(PolicyId::emulated_fp32, g, out.data);
  gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, c.a.ptr(), m, c.b.ptr(), k, 0.0f, out.ptr(), m);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i) EXPECT_LE(std::fabs(out(i, j) - ref[i + j * m]), bound[i + j * m]);
}

TEST(PathSelection, MagnitudesBeyondTf32TakeNativeFp32) {
  PathCase c = uniform_case();
  c.b(2, 3) = std::numeric_limits<float>::max();  // rounds to Inf in TF32
  c.a(0, 0) = 1e-20f;  // and a wide row, so FP16 is out too
  EXPECT_EQ(path_of(c), EmulationPath::native_fp32);
}

}  // namespace
}  // namespace egemm
