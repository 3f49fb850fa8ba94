// NativeFP32 (and EmulatedFP32's hand-off) runs SGEMM through a cuBLASLt plan
// made once per thread, device and call shape (backends/cuda/cublas/sgemm_plans.hpp):
// within the bound on every transpose, padding and alpha/beta; one plan per
// shape, made again only for a new one; the cache starts over when full; the
// same C as cublasSgemm on the same inputs, to FP32's rounding (bit for bit
// where cuBLASLt picks cublasSgemm's kernel, reported), with operands on any
// 4-byte boundary; the tuning's sgemm_plans = false makes no plan.
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "backends/cuda/cublas/sgemm_plans.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

// The largest |p - d| / (|d| + 1) over two results of the same product: well
// under 1e-4 where both are FP32 sums of the same terms in some order.
double largest_difference(const std::vector<float>& p, const std::vector<float>& d) {
  double worst = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    worst = std::max(worst, std::fabs(static_cast<double>(p[i]) - d[i]) / (std::fabs(d[i]) + 1.0));
  return worst;
}

TEST(CudaSgemmPlans, EveryCaseWithinTheBoundAndOnePlanPerShape) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase cases[] = {{'N', 'N', 300, 260, 1000, 1.0f, 0.5f, 1},
                                  {'T', 'N', 129, 400, 70, -0.75f, 2.0f, 0},
                                  {'N', 'T', 1000, 700, 300, 1.0f, 0.0f, 3},
                                  {'T', 'T', 65, 33, 17, 0.5f, -1.0f, 2}};
  for (const test::GemmCase& c : cases) {
    SCOPED_TRACE(std::string(1, c.trans_a) + c.trans_b + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                 std::to_string(c.k));
    const std::size_t before = cuda::sgemm_plans_cached();
    test::check_device_gemm(NativeFP32{}, c);
    const std::size_t made = cuda::sgemm_plans_cached();
    EXPECT_TRUE(made == before + 1 || (before == cuda::max_sgemm_plans && made == 1)) << "a new shape makes one plan";
    test::check_device_gemm(NativeFP32{}, c);  // the same shape (fresh inputs): the plan is reused
    EXPECT_EQ(cuda::sgemm_plans_cached(), made) << "a shape seen before made another plan";
  }
  const cuda::ScopedTuning off([](cuda::Tuning& t) { t.sgemm_plans = false; });
  const std::size_t before = cuda::sgemm_plans_cached();
  test::check_device_gemm(NativeFP32{}, {'N', 'N', 77, 55, 33, 1.0f, 0.0f, 0});
  EXPECT_EQ(cuda::sgemm_plans_cached(), before) << "sgemm_plans = false made a plan";
}

TEST(CudaSgemmPlans, TheCacheStartsOverWhenFull) {
  EGEMM_REQUIRE_GPU();
  for (index_t i = 0; i < static_cast<index_t>(cuda::max_sgemm_plans) + 6; ++i) {
    test::check_device_gemm(NativeFP32{}, {'N', 'T', 16 + i, 24, 40, 1.0f, 0.25f, 0});
    ASSERT_LE(cuda::sgemm_plans_cached(), cuda::max_sgemm_plans);
    if (::testing::Test::HasFailure()) return;
  }
}

// The planned path against cublasSgemm itself on the same device inputs.
TEST(CudaSgemmPlans, SameCAsCublasSgemmToFp32Rounding) {
  EGEMM_REQUIRE_GPU();
  cublasHandle_t h = nullptr;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  for (const index_t n : {1024, 2048}) {
    const index_t m = n, k = n;
    const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed()),
                       c = test::random_matrix(m, n, test::fresh_seed());
    const test::DeviceBuffer<float> da(a.data), db(b.data), planned(c.data), direct(c.data);
    const float alpha = 1.5f, beta = -0.5f;
    gemm(NativeFP32{}, 'N', 'N', m, n, k, alpha, da.get(), m, db.get(), k, beta, planned.get(), m, cudaStream_t{});
    ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                          &alpha, da.get(), static_cast<int>(m), db.get(), static_cast<int>(k), &beta, direct.get(),
                          static_cast<int>(m)),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    const std::vector<float> p = planned.download(), d = direct.download();
    std::size_t equal = 0;
    for (std::size_t i = 0; i < p.size(); ++i) equal += p[i] == d[i];
    const double worst = largest_difference(p, d);
    std::printf("%lld^3: %zu of %zu entries bit-equal to cublasSgemm's\n", static_cast<long long>(n), equal, p.size());
    RecordProperty("bit_equal_" + std::to_string(n), static_cast<int>(equal == p.size()));
    EXPECT_LT(worst, 1e-4) << "the planned SGEMM differs from cublasSgemm by more than FP32 rounding allows";
  }
  cublasDestroy(h);
}

// Operands 4, 8 or 12 bytes past a 256-byte boundary (sub-blocks of a
// matrix): each alignment gets a plan whose algorithm can read them, and C
// is cublasSgemm's to FP32 rounding.
TEST(CudaSgemmPlans, OperandsOffTheirAlignmentGetPlansThatFit) {
  EGEMM_REQUIRE_GPU();
  cublasHandle_t h = nullptr;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  const int m = 520, n = 384, k = 300;  // fills a wave of cuBLAS's tiles; k not a multiple of 8
  const test::Matrix a = test::random_matrix(m + 3, k, test::fresh_seed()), b = test::random_matrix(k + 3, n, test::fresh_seed()),
                     c = test::random_matrix(m + 3, n, test::fresh_seed());
  const test::DeviceBuffer<float> da(a.data), db(b.data);
  for (const int offset : {0, 1, 2, 3}) {
    SCOPED_TRACE("operands " + std::to_string(4 * offset) + " bytes off");
    const test::DeviceBuffer<float> planned(c.data), direct(c.data);
    const float alpha = 1.0f, beta = 0.5f;
    const std::size_t before = cuda::sgemm_plans_cached();
    // lda = m + 3 and so on: every column starts off the boundary too.
    gemm(NativeFP32{}, 'N', 'N', m, n, k, alpha, da.get() + offset, m + 3, db.get() + offset, k + 3, beta,
         planned.get() + offset, m + 3, cudaStream_t{});
    EXPECT_LE(cuda::sgemm_plans_cached(), before + 1);
    ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da.get() + offset, m + 3, db.get() + offset,
                          k + 3, &beta, direct.get() + offset, m + 3),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    EXPECT_LT(largest_difference(planned.download(), direct.download()), 1e-4)
        << "C differs from cublasSgemm's by more than FP32 rounding allows (or outside C)";
  }
  cublasDestroy(h);
}

}  // namespace
}  // namespace egemm
