// EGEMM_LOG=debug says which path the device chose for an EmulatedFP32 call
// (read back after the call), the same as egemm::emulated_fp32_path finds on
// the host for the same operands: the FP16 path with the wide rows it
// recomputes in float64, or the TF32 path when too many rows are wide; and
// for a NormwiseFP32 call the route it took and the cross rule's sums, bit
// for bit the host's.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_support.hpp"
#include "egemm/model/normwise_route.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {
namespace {

using test::Matrix;

// What the library prints for the product of `a` and `b` ('N', 'N') on the GPU.
template <class Tag = EmulatedFP32>
std::string logged_call(const Matrix& a, const Matrix& b, Tag tag = {}) {
  const index_t m = a.rows, k = a.cols, n = b.cols;
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n));
  ::testing::internal::CaptureStderr();
  gemm(tag, 'N', 'N', m, n, k, 1.0f, da.get(), a.ld, db.get(), b.ld, 0.0f, dc.get(), m, nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  return ::testing::internal::GetCapturedStderr();
}

TEST(CudaDebugLog, SaysWhichPathTheDeviceChose) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog debug;
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 256, n = 192, k = 200;
  Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(k, n, gen());
  const auto expect_logged = [&](const std::string& needle) {
    const std::string host_path = path_name(emulated_fp32_path('N', 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld));
    const std::string out = logged_call(a, b);
    EXPECT_NE(out.find("cuda EmulatedFP32 NN m=256 n=192 k=200 -> " + host_path), std::string::npos) << out;
    EXPECT_NE(out.find(needle), std::string::npos) << out;
  };
  expect_logged("-> fp16_scaled\n");  // uniform inputs: no wide row

  a(7, 3) = 3e-12f;  // rows 7 and 100 of op(A) and column 42 of op(B) too wide for FP16 pieces
  a(100, 150) = -1e-13f;
  b(9, 42) = 2e-13f;
  expect_logged("-> fp16_scaled, float64 for 2 wide rows of op(A), 1 wide columns of op(B)");

  for (index_t i = 0; i < m; ++i) a(i, (i * 7) % k) = 1e-12f;  // every row wide: beyond what the FP16 path recomputes
  expect_logged("-> tf32_full_range\n");
}

// NormwiseFP32's route as the device took it, the host's normwise_fp32_path.
TEST(CudaDebugLog, SaysWhichRouteNormwiseFP32Took) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog debug;
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 256, n = 192, k = 4096;
  Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(k, n, gen());
  const auto expect_route = [&](EmulationPath want) {
    ASSERT_EQ(normwise_fp32_path('N', 'N', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), want);
    const std::string out = logged_call(a, b, NormwiseFP32{});
    EXPECT_NE(out.find(std::string("cuda NormwiseFP32 NN m=256 n=192 k=4096 -> ") + path_name(want) + " (cross terms"),
              std::string::npos)
        << out;
  };
  expect_route(EmulationPath::int8_digits);  // uniform rows at k = 4096
  b(1000, 17) = 4096.0f;                     // one column of op(B) spread far
  expect_route(EmulationPath::fp16_scaled);
}

// With the default switches a product below model::normwise_route_pays'
// line goes to EmulatedFP32 at once, without the digits' split or the route.
TEST(CudaDebugLog, SaysNormwiseFP32SkipsTheRouteBelowItsLine) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog debug;
  const cuda::ScopedTuning defaults([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 256, n = 192, k = 4096;
  ASSERT_FALSE(model::normwise_route_pays(m, n, k));
  Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(k, n, gen());
  const std::string out = logged_call(a, b, NormwiseFP32{});
  EXPECT_NE(out.find("cuda NormwiseFP32 NN m=256 n=192 k=4096 -> EmulatedFP32 (no digits for this shape)\n"),
            std::string::npos)
      << out;
}

// The value after `name=` in a log line, a C99 hexadecimal float (exact).
double logged_value(const std::string& out, const std::string& name) {
  const std::size_t at = out.find(" " + name + "=");
  if (at == std::string::npos) return -1.0;
  return std::strtod(out.c_str() + at + name.size() + 2, nullptr);
}

// The cross rule's sums the device's route held against the bound, logged
// exactly, are the host's, bit for bit: the split's column sums (each
// panel's rows in order), the cross kernel's strided sums and
// the route's, on values whose float64 sums round at every add. One panel at
// a shallow depth (where a panel's own order shows; eight seeds, as a sum in
// another order matches in about a quarter of them) and many panels, once
// with zeros scattered (the rows that count summed apart), once with Inf and
// NaN among them too (counted as zeros; the split sees them in its sums).
TEST(CudaDebugLog, NormwiseFP32sCrossTermsAreTheHostsBitForBit) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog debug;
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  const std::uint64_t seed = test::fresh_seed();
  struct Shape {
    index_t m, n, k;
  };
  std::vector<Shape> shapes(8, Shape{32, 32, 2});
  shapes.push_back({35 * 32 + 7, 200, 1000});
  shapes.push_back({35 * 32 + 7, 200, 1000});  // with zeros: the split's second loop over a column's rows
  shapes.push_back({35 * 32 + 7, 200, 1000});  // with zeros, Inf and NaN
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape s = shapes[i];
    const bool zeros = i + 2 >= shapes.size(), specials = i + 1 == shapes.size();
    SCOPED_TRACE(::testing::Message() << s.m << " x " << s.n << " x " << s.k << ", seed " << seed + 2 * i
                                      << (specials ? ", with zeros, Inf and NaN" : zeros ? ", with zeros" : ""));
    Matrix a = test::random_wide_matrix(s.m, s.k, seed + 2 * i, -4, 4);
    Matrix b = test::random_wide_matrix(s.k, s.n, seed + 2 * i + 1, -4, 4);
    if (zeros) {  // a third of op(A)'s elements and every fifth of op(B)'s, scattered
      for (index_t j = 0; j < s.k; ++j)
        for (index_t r = 0; r < s.m; ++r)
          if ((r * 7 + j) % 3 == 0) a(r, j) = 0.0f;
      for (index_t c = 0; c < s.n; ++c)
        for (index_t j = 0; j < s.k; ++j)
          if ((c * 3 + j * 11) % 5 == 0) b(j, c) = 0.0f;
    }
    if (specials) {  // in panels of their own rows and in shared ones, in either operand
      const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
      a(5, 17) = inf, a(6, 17) = -inf, a(40, 300) = nan, a(s.m - 1, s.k - 1) = nan;
      b(600, 3) = -inf, b(601, 190) = nan;
    }
    const GemmArgs g = make_operand_args("test", 'N', 'N', s.m, s.n, s.k, a.ptr(), a.ld, b.ptr(), b.ld);
    const numerics::Int8CrossTerms want = int8_cross_terms(g.a_rows(), g.b_cols());
    const std::string out = logged_call(a, b, NormwiseFP32{});
    ASSERT_NE(out.find("cross terms digits="), std::string::npos) << out;
    EXPECT_EQ(test::bits_of(logged_value(out, "digits")), test::bits_of(want.digits)) << out << std::hexfloat << want.digits;
    EXPECT_EQ(test::bits_of(logged_value(out, "fp32")), test::bits_of(want.fp32)) << out << std::hexfloat << want.fp32;
    EXPECT_EQ(test::bits_of(logged_value(out, "pairs")), test::bits_of(want.pairs)) << out << std::hexfloat << want.pairs;
  }
}

}  // namespace
}  // namespace egemm
