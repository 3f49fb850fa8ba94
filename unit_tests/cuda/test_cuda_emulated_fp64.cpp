// EmulatedFP64 on the GPU: bit for bit the host oracle (every transpose, odd
// sizes, leading dimensions, alpha/beta, Inf/NaN, wide rows, overflow), a
// poisoned C fully written, accuracy against exact dot products beside
// cuBLAS DGEMM's on the same entries, the DGEMM hand-off of small problems,
// the debug log's line, and bad arguments.
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_support.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "support/fp64_exact.hpp"
#include "support/fp64_matrices.hpp"

namespace egemm {
namespace {

using test::Fill64;
using test::Matrix64;

const bool kernels_at_every_size = [] { return setenv("EGEMM_SMALL_GEMM_FALLBACK", "0", 1) == 0; }();
constexpr double nan64 = std::numeric_limits<double>::quiet_NaN();

using DeviceCase = test::Fp64Case;
using HostOperands = test::Fp64Operands;

std::vector<double> on_device(const DeviceCase& t, const HostOperands& o) {
  test::DeviceBuffer<double> a(o.a.data), b(o.b.data), c(o.c.data);
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, a.get(), o.a.ld, b.get(), o.b.ld, t.beta, c.get(), o.c.ld,
       nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "EmulatedFP64 on the device");
  return c.download();
}

void expect_matches_host(const DeviceCase& t, HostOperands o, const std::string& what) {
  const std::vector<double> device = on_device(t, o);
  gemm(EmulatedFP64{}, t.ta, t.tb, t.m, t.n, t.k, t.alpha, o.a.ptr(), o.a.ld, o.b.ptr(), o.b.ld, t.beta, o.c.ptr(),
       o.c.ld);
  std::size_t differ = 0, first = 0;
  for (std::size_t q = 0; q < device.size(); ++q)
    if (test::bits_of(device[q]) != test::bits_of(o.c.data[q]) && !(std::isnan(device[q]) && std::isnan(o.c.data[q])))
      if (differ++ == 0) first = q;
  EXPECT_EQ(differ, 0u) << what << " " << t.ta << t.tb << " m=" << t.m << " n=" << t.n << " k=" << t.k
                        << ": first at " << first << ": device " << device[first] << ", host " << o.c.data[first];
}

TEST(CudaEmulatedFP64, MatchesTheHostOracleBitForBit) {
  EGEMM_REQUIRE_GPU();
  ASSERT_TRUE(kernels_at_every_size);
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'})
      for (const DeviceCase& t : {DeviceCase{ta, tb, 1, 1, 1, 1.0, 0.0}, DeviceCase{ta, tb, 33, 17, 70, -1.5, 0.0, 3},
                                  DeviceCase{ta, tb, 130, 257, 301, 0.75, 2.0, 1}})
        expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), "uniform");
  for (Fill64 fill : {Fill64::normal, Fill64::wide}) {
    DeviceCase t{'N', 'T', 200, 150, 1000, 1.0, 0.0, 0};
    t.fill = fill;
    expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), test::fill_name(fill));
  }
  // The split's three forms: rows held in shared memory by 256 threads (above), by 512
  // (k > 12288), and read from global memory (k > 16384).
  for (const DeviceCase& t : {DeviceCase{'T', 'N', 40, 24, 13001, 1.0, 0.0, 0}, DeviceCase{'N', 'N', 24, 40, 16385, 1.0, 0.5, 1}})
    expect_matches_host(t, test::fp64_operands(t, test::fresh_seed()), "deep rows");
}

TEST(CudaEmulatedFP64, SpecialValuesWideRowsAndOverflowMatchTheHost) {
  EGEMM_REQUIRE_GPU();
  DeviceCase t{'N', 'N', 70, 60, 90, 1.0, 0.5, 0};
  HostOperands o = test::fp64_operands(t, test::fresh_seed());
  o.a(3, 5) = std::numeric_limits<double>::infinity();
  o.a(9, 0) = nan64;
  o.b(7, 11) = -std::numeric_limits<double>::infinity();
  std::mt19937_64 gen(test::fresh_seed());
  std::uniform_int_distribution<int> e(-30, 30);
  for (index_t p = 0; p < t.k; ++p) o.a(20, p) = std::ldexp(o.a(20, p), e(gen));  // a wide row
  for (index_t p = 0; p < t.k; ++p) o.b(p, 30) = std::ldexp(o.b(p, 30), e(gen));  // a wide column
  o.a(40, 2) = 1e300;                                                             // products past FP64's range
  o.b(2, 41) = 1e300;
  expect_matches_host(t, o, "special values");
}

// Error over >= 10^4 sampled entries against exact dot products, beside
// cuBLAS DGEMM's on the same entries.
TEST(CudaEmulatedFP64, AtLeastAsAccurateAsCublasDgemm) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 1024, n = 1024, k = 4096;
  cublasHandle_t h;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  for (Fill64 fill : {Fill64::uniform, Fill64::normal, Fill64::wide}) {
    const Matrix64 a = test::random_matrix64(m, k, test::fresh_seed(), fill),
                   b = test::random_matrix64(k, n, test::fresh_seed(), fill);
    test::DeviceBuffer<double> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n)),
        dd(static_cast<std::size_t>(m * n));
    const double one = 1.0, zero = 0.0;
    gemm(EmulatedFP64{}, 'N', 'N', m, n, k, 1.0, da.get(), m, db.get(), k, 0.0, dc.get(), m, nullptr);
    ASSERT_EQ(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da.get(), m, db.get(), k, &zero, dd.get(), m),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "gemms");
    const std::vector<double> ours = dc.download(), dgemm = dd.download();
    std::vector<double> o, d, exact;
    for (const test::Entry e : test::sample_entries(m, n, 12000, test::fresh_seed())) {
      exact.push_back(test::exact_dot(a.ptr() + e.i, m, b.ptr() + e.j * k, 1, k));
      o.push_back(ours[e.i + e.j * m]);
      d.push_back(dgemm[e.i + e.j * m]);
    }
    const test::SampleError eo = test::sample_error(o, exact), ed = test::sample_error(d, exact);
    std::printf("[ info ] %s 1024x1024x4096, %zu entries: EmulatedFP64 rel. Frobenius %.3e (max %.3e), cuBLAS DGEMM %.3e (max %.3e)\n",
                test::fill_name(fill), eo.entries, eo.rel_frobenius, eo.max_rel_to_max, ed.rel_frobenius, ed.max_rel_to_max);
    EXPECT_LE(eo.rel_frobenius, ed.rel_frobenius) << test::fill_name(fill);
    EXPECT_LE(eo.max_rel_to_max, ed.max_rel_to_max) << test::fill_name(fill);
  }
  cublasDestroy(h);
}

// With the hand-off on, a small problem is cuBLAS DGEMM, bit for bit; a large one is not.
TEST(CudaEmulatedFP64, SmallProblemsRunDgemm) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  const auto both = [](index_t s) {
    const Matrix64 a = test::random_matrix64(s, s, test::fresh_seed()), b = test::random_matrix64(s, s, test::fresh_seed());
    test::DeviceBuffer<double> da(a.data), db(b.data), dc(static_cast<std::size_t>(s * s)), dd(dc.size());
    gemm(EmulatedFP64{}, 'N', 'N', s, s, s, 1.0, da.get(), s, db.get(), s, 0.0, dc.get(), s, nullptr);
    cublasHandle_t h;
    cublasCreate(&h);
    const double one = 1.0, zero = 0.0;
    cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, s, s, s, &one, da.get(), s, db.get(), s, &zero, dd.get(), s);
    test::cuda_ok(cudaDeviceSynchronize(), "gemms");
    cublasDestroy(h);
    return std::make_pair(dc.download(), dd.download());
  };
  const auto [small_ours, small_dgemm] = both(256);
  EXPECT_EQ(small_ours, small_dgemm);
  EXPECT_FALSE(emulated_fp64_uses_tensor_cores(256, 256, 256));
  EXPECT_TRUE(emulated_fp64_uses_tensor_cores(4096, 4096, 4096));
  EXPECT_FALSE(emulated_fp64_uses_tensor_cores(2048, 8192, 8192));
  const auto [big_ours, big_dgemm] = both(4096);
  EXPECT_NE(big_ours, big_dgemm);
}

TEST(CudaEmulatedFP64, DebugLogSaysWhatRan) {
  EGEMM_REQUIRE_GPU();
  const test::ScopedDebugLog log;
  DeviceCase t{'N', 'N', 64, 64, 64, 1.0, 0.0, 0};
  HostOperands o = test::fp64_operands(t, test::fresh_seed());
  for (index_t p = 0; p < t.k; ++p) o.a(5, p) = std::ldexp(o.a(5, p), static_cast<int>(p % 61) - 30);
  ::testing::internal::CaptureStderr();
  (void)on_device(t, o);
  const std::string text = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(text.find("cuda EmulatedFP64 NN m=64 n=64 k=64 -> 15 moduli, float64 for 1 wide rows of op(A)"),
            std::string::npos)
      << text;
}

TEST(CudaEmulatedFP64, BadArgumentsThrowAndLeaveCUntouched) {
  EGEMM_REQUIRE_GPU();
  const Matrix64 a = test::random_matrix64(8, 8, 1), b = test::random_matrix64(8, 8, 2);
  Matrix64 host_c = test::random_matrix64(8, 8, 3);
  test::DeviceBuffer<double> da(a.data), db(b.data), dc(host_c.data);
  EXPECT_THROW(gemm(EmulatedFP64{}, 'N', 'N', 8, 8, 8, 1.0, da.get(), 7, db.get(), 8, 0.0, dc.get(), 8, nullptr),
               invalid_argument);
  EXPECT_THROW(gemm(EmulatedFP64{}, 'N', 'N', 8, 8, 8, 1.0, a.ptr(), 8, db.get(), 8, 0.0, dc.get(), 8, nullptr),
               invalid_argument);  // host A with a stream
  EXPECT_EQ(dc.download(), host_c.data);
}

}  // namespace
}  // namespace egemm
