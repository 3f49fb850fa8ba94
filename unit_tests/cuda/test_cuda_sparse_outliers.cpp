// EmulatedFP32's sparse outliers on the GPU: the device finds the rows and
// columns the host does (the debug log), adds the outliers as the host oracle
// does (each entry the dense part's plus the same float64 sum, bit for bit),
// keeps Inf, NaN and overflow as FP32 gemm, and ends at least as accurate as
// cuBLAS SGEMM on uniform inputs with 2^20 outliers, in norm and entry by entry.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_support.hpp"
#include "egemm/path_selection.hpp"
#include "support/outlier_check.hpp"

namespace egemm {
namespace {

using test::Matrix;

// Outliers at the given places (row, column of the stored matrix): the value
// moved 0.5 from 0, times 2^30, so that each certainly makes its row wide.
void scale_at(Matrix& x, const std::vector<std::pair<index_t, index_t>>& at) {
  for (const auto& [r, c] : at) x(r, c) = x(r, c) >= 0.0f ? 0x1p30f * (0.5f + x(r, c)) : 0x1p30f * (x(r, c) - 0.5f);
}

// C of g's call on the device, from g's host operands (g.c untouched).
template <class Policy = EmulatedFP32>
std::vector<float> device_c(const GemmArgs& g, const float* a, const float* b) {
  std::vector<float> c(g.c, g.c + test::c_elems(g));
  GemmArgs h = g;
  h.a = a;
  h.b = b;
  h.c = c.data();
  test::run_on_device(Policy{}, h, nullptr);
  return c;
}

// Uniform op(A) 300 x 1024 and op(B) 1024 x 200 stored per the transposes, with
// outliers (past each row's first 32 values, which judge it) alone and
// sharing rows and columns, meeting each other, and many rows with one.
struct Case {
  Matrix a, b;
  char ta, tb;
};

Case outlier_case(char ta, char tb, std::uint64_t seed) {
  const index_t m = 300, n = 200, k = 1024;
  Case c{ta == 'N' ? test::random_matrix(m, k, seed) : test::random_matrix(k, m, seed),
         tb == 'N' ? test::random_matrix(k, n, seed + 1) : test::random_matrix(n, k, seed + 1), ta, tb};
  std::vector<std::pair<index_t, index_t>> in_a = {{5, 100}, {5, 200}, {5, 700}, {9, 333}, {299, 1023}}, in_b;
  for (index_t i = 20; i < 300; i += 7) in_a.push_back({i, 32 + (i * 13) % 990});
  in_b = {{100, 7}, {333, 7}, {512, 7}, {1023, 199}, {200, 0}};
  for (index_t j = 30; j < 200; j += 11) in_b.push_back({40 + (j * 17) % 980, j});
  for (auto& [i, p] : in_a)
    if (ta == 'T') std::swap(i, p);
  for (auto& [p, j] : in_b)
    if (tb == 'T') std::swap(p, j);
  scale_at(c.a, in_a);
  scale_at(c.b, in_b);
  return c;
}

// The device's path and its routed rows and columns, as the log says them,
// are the host's choice; every entry is the device's dense part plus the
// host-order float64 sum, bit for bit; and within twice the bound of the host
// oracle. Each transpose, alpha and beta, on each fused kernel.
TEST(CudaSparseOutliers, EntriesAreTheDensePartPlusTheOutliersBitForBit) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  for (const cuda::Sm90Kernel kernel : test::each_fused_kernel_switch())
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        const std::uint64_t seed = test::fresh_seed();
        SCOPED_TRACE(::testing::Message() << test::fused_kernel_switch_label(kernel) << " " << ta << tb << " seed " << seed);
        const cuda::ScopedTuning forced([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
        const Case c = outlier_case(ta, tb, seed);
        const index_t m = 300, n = 200, k = 1024;
        Matrix c0 = test::random_matrix(m, n, seed + 2);
        const GemmArgs g = make_gemm_args("test", ta, tb, m, n, k, 0.75f, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld, -1.5f,
                                          c0.ptr(), c0.ld);
        const EmulatedFp32Choice host = emulated_fp32_choice(ta, tb, m, n, k, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld);
        ASSERT_EQ(host.path, EmulationPath::fp16_scaled);
        ASSERT_GT(host.a.outlier_rows, 40);
        ASSERT_GT(host.b.outlier_rows, 15);
        std::vector<float> c_device;
        {
          const test::ScopedDebugLog debug;
          ::testing::internal::CaptureStderr();
          c_device = device_c(g, c.a.ptr(), c.b.ptr());
          const std::string log = ::testing::internal::GetCapturedStderr();
          const std::string said = "sparse outliers apart in " + std::to_string(host.a.outlier_rows) + " rows of op(A), " +
                                   std::to_string(host.b.outlier_rows) + " columns of op(B)";
          EXPECT_NE(log.find("-> fp16_scaled"), std::string::npos) << log;
          EXPECT_NE(log.find(said), std::string::npos) << log << "\nwanted: " << said;
        }
        const auto [dense_a, dense_b] = test::without_routed_outliers(g, c.a.data, c.b.data);
        const std::vector<float> dense = device_c(g, dense_a.data(), dense_b.data());
        const std::vector<float> want = test::dense_plus_outliers(g, dense);
        int reported = 0;
        for (std::size_t e = 0; e < want.size(); ++e)
          if (test::bits_of(want[e]) != test::bits_of(c_device[e]) && reported++ < 5)
            ADD_FAILURE() << "C(" << e % m << "," << e / m << ") = " << c_device[e] << ", dense part plus outliers "
                          << want[e];
        EXPECT_EQ(reported, 0);
        // And the host oracle's result within twice the bound (both are within it of the exact product).
        std::vector<float> c_host(c0.data);
        test::run_on_host(EmulatedFP32{}, g, c_host.data());
        const std::vector<double> bound = test::error_bound(PolicyId::emulated_fp32, g, c0.data);
        for (std::size_t e = 0; e < want.size(); ++e)
          if (!(std::fabs(static_cast<double>(c_device[e]) - c_host[e]) <= 2.0 * bound[e]) && reported++ < 5)
            ADD_FAILURE() << "C(" << e % m << "," << e / m << ") = " << c_device[e] << ", host " << c_host[e];
        EXPECT_EQ(reported, 0);
        if (::testing::Test::HasFailure()) return;
      }
}

// Inf and NaN in rows and columns with outliers, outliers near FLT_MAX
// (finite, +Inf and -Inf sums), a wide row among routed ones, outliers among
// the first values: each entry's class is the host oracle's (FP32 gemm's),
// the finite ones within twice the bound of the host's.
TEST(CudaSparseOutliers, SpecialValuesOverflowAndWideRowsAmongOutliers) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << "seed " << seed);
  Case c = outlier_case('N', 'N', seed);
  c.a(3, 100) = std::nanf("");
  c.a(5, 7) = std::numeric_limits<float>::infinity();
  c.b(9, 7) = -std::numeric_limits<float>::infinity();
  c.a(40, 400) = 3e38f;
  c.b(400, 50) = 1.0f;
  c.a(41, 500) = 3e38f, c.a(41, 501) = 3e38f;
  c.b(500, 51) = 0.75f, c.b(501, 51) = 0.75f;
  c.a(42, 600) = -3e38f, c.a(42, 601) = -3e38f;
  c.b(600, 52) = 0.8f, c.b(601, 52) = 0.8f;
  c.a(60, 77) = 1e-12f;   // a wide row beside the routed ones
  c.a(61, 0) *= 0x1p30f;  // an outlier among the first values, judged by the second largest
  const index_t m = 300, n = 200, k = 1024;
  Matrix c0 = test::random_matrix(m, n, seed + 2);
  const GemmArgs g = make_gemm_args("test", 'N', 'N', m, n, k, 1.0f, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld, 0.5f, c0.ptr(),
                                    c0.ld);
  ASSERT_EQ(emulated_fp32_path('N', 'N', m, n, k, c.a.ptr(), c.a.ld, c.b.ptr(), c.b.ld), EmulationPath::fp16_scaled);
  const std::vector<float> d = device_c(g, c.a.ptr(), c.b.ptr());
  std::vector<float> h(c0.data);
  test::run_on_host(EmulatedFP32{}, g, h.data());
  const std::vector<double> bound = test::error_bound(PolicyId::emulated_fp32, g, c0.data);
  int reported = 0;
  for (std::size_t e = 0; e < d.size(); ++e) {
    const bool same_class = std::isnan(d[e]) == std::isnan(h[e]) && std::isfinite(d[e]) == std::isfinite(h[e]) &&
                            (!std::isinf(d[e]) || d[e] == h[e]);
    const bool close = !std::isfinite(h[e]) || !std::isfinite(bound[e]) ||
                       std::fabs(static_cast<double>(d[e]) - h[e]) <= 2.0 * bound[e];
    if (!(same_class && close) && reported++ < 5)
      ADD_FAILURE() << "C(" << e % m << "," << e / m << ") = " << d[e] << ", host " << h[e];
  }
  EXPECT_EQ(reported, 0);
  EXPECT_EQ(d[40 + 50 * m], h[40 + 50 * m]);
  EXPECT_EQ(d[41 + 51 * m], std::numeric_limits<float>::infinity());
  EXPECT_EQ(d[42 + 52 * m], -std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(d[3 + 10 * m]));
}

void cublas_ok(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(s));
}

struct Errors {
  double frobenius = 0, max_abs = 0;
};

Errors errors_of(const std::vector<float>& c, const std::vector<double>& ref) {
  double err2 = 0.0, ref2 = 0.0, worst = 0.0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double e = std::fabs(c[i] - ref[i]);
    err2 += e * e;
    ref2 += ref[i] * ref[i];
    worst = std::max(worst, std::isnan(e) ? std::numeric_limits<double>::infinity() : e);
  }
  return {std::sqrt(err2 / ref2), worst};
}

// FP32's own rounding of the reference: the error no FP32 result can go below.
std::vector<float> rounded(const std::vector<double>& ref) { return std::vector<float>(ref.begin(), ref.end()); }

// Uniform [-1, 1] operands with one entry in 10^3 .. 10^6 scaled by 2^20 (the
// suite's outlier family), 2048^3: EmulatedFP32's relative Frobenius error and
// largest entry error at most cuBLAS SGEMM's, on each fused kernel, with the
// outliers apart (the log says so). Where SGEMM's Frobenius error is itself
// within 2% of the reference rounded once to FP32 (the entries in outlier rows
// are so large that one rounding is all either makes: seen at one outlier in
// 10^4, 2.775e-08 against SGEMM's 2.760e-08), the two are at that floor and
// EmulatedFP32 must be within 2% of it instead.
TEST(CudaSparseOutliers, AtLeastAsAccurateAsCublasSgemm) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  cublasHandle_t handle = nullptr;
  cublas_ok(cublasCreate(&handle), "cublasCreate");
  const int size = 2048;
  const std::size_t count = static_cast<std::size_t>(size) * size;
  for (double density : {1e-3, 1e-4, 1e-5, 1e-6}) {
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << "density " << density << " seed " << seed);
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::bernoulli_distribution hit(density);
    std::vector<float> a(count), b(count);
    for (float& x : a) x = hit(gen) ? u(gen) * 0x1p20f : u(gen);
    for (float& x : b) x = hit(gen) ? u(gen) * 0x1p20f : u(gen);
    const std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end());
    test::DeviceBuffer<float> da(a), db(b), dc(count);
    test::DeviceBuffer<double> da64(a64), db64(b64), dref(count);
    const double one = 1.0, zero = 0.0;
    cublas_ok(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, size, size, size, &one, da64.get(), size, db64.get(), size,
                          &zero, dref.get(), size),
              "cublasDgemm");
    const std::vector<double> ref = dref.download();
    const float onef = 1.0f, zerof = 0.0f;
    cublas_ok(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, size, size, size, &onef, da.get(), size, db.get(), size,
                          &zerof, dc.get(), size),
              "cublasSgemm");
    const Errors sgemm = errors_of(dc.download(), ref);
    const Errors floor = errors_of(rounded(ref), ref);
    const bool sgemm_at_floor = sgemm.frobenius <= 1.02 * floor.frobenius;
    const EmulatedFp32Choice host = emulated_fp32_choice('N', 'N', size, size, size, a.data(), size, b.data(), size);
    for (const cuda::Sm90Kernel kernel : test::each_fused_kernel_switch()) {
      const cuda::ScopedTuning forced([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
      test::cuda_ok(cudaMemset(dc.get(), 0xFF, count * sizeof(float)), "poison C");
      gemm(EmulatedFP32{}, 'N', 'N', size, size, size, 1.0f, da.get(), size, db.get(), size, 0.0f, dc.get(), size, nullptr);
      test::cuda_ok(cudaDeviceSynchronize(), "sync");
      const Errors emulated = errors_of(dc.download(), ref);
      std::printf("[ outliers ] 2048^3, density %g, %s: %s with %lld + %lld routed rows/columns; rel. Frobenius %.3e "
                  "(SGEMM %.3e, FP32's rounding %.3e), max %.3e (SGEMM %.3e)\n",
                  density, test::fused_kernel_switch_label(kernel).c_str(), path_name(host.path),
                  static_cast<long long>(host.a.outlier_rows), static_cast<long long>(host.b.outlier_rows),
                  emulated.frobenius, sgemm.frobenius, floor.frobenius, emulated.max_abs, sgemm.max_abs);
      EXPECT_EQ(host.path, EmulationPath::fp16_scaled);
      EXPECT_LE(emulated.frobenius, sgemm_at_floor ? std::max(sgemm.frobenius, 1.02 * floor.frobenius) : sgemm.frobenius);
      EXPECT_LE(emulated.max_abs, sgemm.max_abs);
    }
  }
  cublasDestroy(handle);
}

}  // namespace
}  // namespace egemm
