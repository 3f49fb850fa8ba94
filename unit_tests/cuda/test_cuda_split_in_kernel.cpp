// EmulatedFP32's split inside the Hopper kernel (backends/cuda/sm90/split_in_kernel.cuh):
// taken where TMA can read both operands in place, and then the same bits as
// the split pass feeding the same tile (EGEMM_SM90_SPLIT=pass), for every
// transpose, edge sizes, scaled rows and columns, Inf/NaN and wide rows; within
// the bound of the float64 reference and the host oracle; the stream-K tail too.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cuda/fused_gemm.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

using test::Matrix;

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

bool splits_in_kernel_here() {
  return cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) ==
         cuda::FusedKernel::wgmma_tma_sm90;
}

index_t round_up4(index_t v) { return (v + 3) / 4 * 4; }

// op(A) (m x k) and op(B) (k x n) as stored for the transposes, leading
// dimensions rounded up to 4 floats (what TMA reads in place) plus `pad` x 4.
struct Operands {
  Matrix a, b;
  Operands(char ta, char tb, index_t m, index_t n, index_t k, index_t pad, std::mt19937_64& gen)
      : a(ta == 'N' ? test::random_matrix(m, k, gen(), round_up4(m) + 4 * pad)
                    : test::random_matrix(k, m, gen(), round_up4(k) + 4 * pad)),
        b(tb == 'N' ? test::random_matrix(k, n, gen(), round_up4(k) + 4 * pad)
                    : test::random_matrix(n, k, gen(), round_up4(n) + 4 * pad)) {}
};

// C on the device (poisoned first when beta == 0) for the current environment.
std::vector<float> device_c(const Operands& o, char ta, char tb, index_t m, index_t n, index_t k, float alpha, float beta,
                            const std::vector<float>& c_in) {
  const test::DeviceBuffer<float> a(o.a.data), b(o.b.data), c(c_in);
  gemm(EmulatedFP32{}, ta, tb, m, n, k, alpha, a.get(), o.a.ld, b.get(), o.b.ld, beta, c.get(), m, cudaStream_t{});
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  return c.download();
}

bool same_bits(float x, float y) {
  std::uint32_t a = 0, b = 0;
  std::memcpy(&a, &x, 4);
  std::memcpy(&b, &y, 4);
  return a == b;
}

// The kernel's split against the split pass feeding the same tile (128 x 128,
// forced), whole tiles only: every bit of C equal.
void expect_same_bits_as_the_split_pass(const Operands& o, char ta, char tb, index_t m, index_t n, index_t k,
                                        float alpha, float beta) {
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> c_in(static_cast<std::size_t>(m * n));
  for (float& x : c_in) x = beta == 0.0f ? std::numeric_limits<float>::quiet_NaN() : u(gen);
  const ScopedEnv whole("EGEMM_SM90_STREAM_K", "0");
  std::vector<float> c_host = c_in;  // make_gemm_args checks C too
  const GemmArgs g = make_gemm_args("test", ta, tb, m, n, k, alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, beta,
                                    c_host.data(), m);
  ASSERT_TRUE(cuda::emulated_fp32_splits_in_kernel(g)) << "TMA should read these operands in place";
  const std::vector<float> in_kernel = device_c(o, ta, tb, m, n, k, alpha, beta, c_in);
  std::vector<float> split_pass;
  {
    const ScopedEnv pass("EGEMM_SM90_SPLIT", "pass"), tile("EGEMM_SM90_TILE", "128x128x2");
    ASSERT_FALSE(cuda::emulated_fp32_splits_in_kernel(g));
    split_pass = device_c(o, ta, tb, m, n, k, alpha, beta, c_in);
  }
  int reported = 0;
  for (std::size_t i = 0; i < in_kernel.size(); ++i)
    if (!same_bits(in_kernel[i], split_pass[i]) && reported++ < 5)
      ADD_FAILURE() << "C(" << i % m << "," << i / m << "): split in the kernel " << in_kernel[i] << ", split pass "
                    << split_pass[i];
  EXPECT_EQ(reported, 0);
}

TEST(CudaSplitInKernel, TakenWhereTmaReadsBothOperandsInPlace) {
  EGEMM_REQUIRE_GPU();
  if (!splits_in_kernel_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  const std::vector<float> a(66 * 64 + 4, 1.0f), b(66 * 64 + 4, 1.0f);
  std::vector<float> c(64 * 64);
  auto args = [&](char ta, char tb, const float* pa, index_t lda, index_t ldb) {
    return make_gemm_args("test", ta, tb, 60, 64, 64, 1.0f, pa, lda, b.data(), ldb, 0.0f, c.data(), 64);
  };
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      SCOPED_TRACE(std::string("transposes ") + ta + tb);
      EXPECT_TRUE(cuda::emulated_fp32_splits_in_kernel(args(ta, tb, a.data(), 64, 64)));
      EXPECT_FALSE(cuda::emulated_fp32_splits_in_kernel(args(ta, tb, a.data(), 65, 64))) << "lda not 16 bytes";
      EXPECT_FALSE(cuda::emulated_fp32_splits_in_kernel(args(ta, tb, a.data(), 64, 66))) << "ldb not 16 bytes";
      EXPECT_FALSE(cuda::emulated_fp32_splits_in_kernel(args(ta, tb, a.data() + 1, 64, 64))) << "A not 16-byte aligned";
    }
  const ScopedEnv pass("EGEMM_SM90_SPLIT", "pass");
  EXPECT_FALSE(cuda::emulated_fp32_splits_in_kernel(args('N', 'N', a.data(), 64, 64)));
}

// Uniform inputs, every transpose; one partial tile, a ragged k (16 k-tiles,
// the last partial), several tiles per persistent block, a padded leading dimension.
TEST(CudaSplitInKernel, SameBitsAsTheSplitPassForEveryTranspose) {
  EGEMM_REQUIRE_GPU();
  if (!splits_in_kernel_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  std::mt19937_64 gen(test::fresh_seed());
  struct Shape {
    index_t m, n, k, pad;
    float alpha, beta;
  };
  for (const Shape s : {Shape{129, 68, 1000, 0, -1.0f, 0.0f}, Shape{300, 200, 300, 1, 0.5f, -1.0f},
                        Shape{2300, 1900, 900, 0, 1.0f, 0.5f}})
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        SCOPED_TRACE(std::string("transposes ") + ta + tb + ", " + std::to_string(s.m) + " x " + std::to_string(s.n) +
                     " x " + std::to_string(s.k));
        const Operands o(ta, tb, s.m, s.n, s.k, s.pad, gen);
        expect_same_bits_as_the_split_pass(o, ta, tb, s.m, s.n, s.k, s.alpha, s.beta);
        if (::testing::Test::HasFailure()) return;
      }
}

// Rows and columns scaled by 2^-60 .. 2^60 (nonzero exponents, some outside
// one normal factor's reach), Inf and NaN in a row and a column, one wide
// row (recomputed in float64): the kernel's pieces are still the pass's.
TEST(CudaSplitInKernel, SameBitsAsTheSplitPassWithScalingSpecialsAndWideRows) {
  EGEMM_REQUIRE_GPU();
  if (!splits_in_kernel_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> scale(-60, 60);
  const index_t m = 520, n = 260, k = 384;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      SCOPED_TRACE(std::string("transposes ") + ta + tb);
      Operands o(ta, tb, m, n, k, 0, gen);
      auto a_at = [&](index_t i, index_t p) -> float& { return ta == 'N' ? o.a(i, p) : o.a(p, i); };
      auto b_at = [&](index_t p, index_t j) -> float& { return tb == 'N' ? o.b(p, j) : o.b(j, p); };
      for (index_t i = 0; i < m; ++i) {
        const int e = i == 3 ? -140 : scale(gen);  // row 3: 2^-140, beyond one normal factor
        for (index_t p = 0; p < k; ++p) a_at(i, p) = std::ldexp(a_at(i, p), e);
      }
      for (index_t j = 0; j < n; ++j) {
        const int e = j == 5 ? 120 : scale(gen);
        for (index_t p = 0; p < k; ++p) b_at(p, j) = std::ldexp(b_at(p, j), e);
      }
      a_at(7, 11) = std::numeric_limits<float>::infinity();
      b_at(13, 17) = std::numeric_limits<float>::quiet_NaN();
      a_at(200, 0) = std::ldexp(a_at(200, 1), -40);  // one wide row
      ASSERT_EQ(emulated_fp32_path(ta, tb, m, n, k, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld), EmulationPath::fp16_scaled);
      expect_same_bits_as_the_split_pass(o, ta, tb, m, n, k, 1.0f, 0.0f);
      if (::testing::Test::HasFailure()) return;
    }
}

// Against the float64 reference and the host oracle (leading dimensions of
// whole 16 bytes: the kernel's split), with and without the stream-K tail;
// the tail's sums repeat bit for bit.
TEST(CudaSplitInKernel, WithinTheBoundWholeTilesAndStreamKTail) {
  EGEMM_REQUIRE_GPU();
  if (!splits_in_kernel_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  for (const char* stream_k : {"0", "1"}) {
    SCOPED_TRACE(std::string("EGEMM_SM90_STREAM_K=") + stream_k);
    const ScopedEnv tail("EGEMM_SM90_STREAM_K", stream_k);
    test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 2300, 2300, 1100, 1.0f, 0.5f, 0});
    test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 1000, 700, 3000, -0.5f, 0.0f, 0});
    test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 300, 196, 332, 0.5f, -1.0f, 4});
    test::check_device_gemm(EmulatedFP32{}, {'T', 'T', 132, 136, 64, 1.0f, 0.0f, 0});
    if (::testing::Test::HasFailure()) return;
  }
  const ScopedEnv tail("EGEMM_SM90_STREAM_K", "1");
  std::mt19937_64 gen(test::fresh_seed());
  const Operands o('N', 'N', 2300, 1900, 900, 0, gen);
  const std::vector<float> c_in(std::size_t{2300} * 1900, std::numeric_limits<float>::quiet_NaN());
  const std::vector<float> first = device_c(o, 'N', 'N', 2300, 1900, 900, 1.0f, 0.0f, c_in);
  EXPECT_TRUE(device_c(o, 'N', 'N', 2300, 1900, 900, 1.0f, 0.0f, c_in) == first)
      << "the stream-K tail's sums changed from one run to the next";
}

}  // namespace
}  // namespace egemm
