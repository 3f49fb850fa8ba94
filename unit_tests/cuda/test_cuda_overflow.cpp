// Products and sums beyond FP32's range, and subnormal products, on the
// device: every tag that promises FP32's range behaviour gives +-Inf, NaN and
// finite entries where FP32 gemm does, and the host oracle's entries (the
// same bits where the sums are exact integers, the same class and sign and
// within twice the bound elsewhere), on each kernel and path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "device_support.hpp"
#include "egemm/path_selection.hpp"
#include "support/overflow_cases.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

template <class Policy>
class CudaOverflow : public ::testing::Test {};
TYPED_TEST_SUITE(CudaOverflow, test::AllPolicyTypes, test::PolicyNames);

// The device's C against the host oracle's on the same inputs: entries that
// are not left to the summation order agree in class and sign; finite ones
// bit for bit where the digits' exact sums ran (Int8Slices, NormwiseFP32's
// route), else within twice the bound (each is within the bound of the
// exact product, their tensor-core and host sums rounding differently).
void expect_host_oracle_agrees(PolicyId policy, test::OverflowCase& x, const std::vector<float>& device,
                               const std::vector<float>& host) {
  const GemmArgs g = x.args();
  const bool exact_sums = test::effective_policy(policy, g) == PolicyId::int8_slices;
  const std::vector<double> bound = test::error_bound(policy, g, x.c.data);
  int reported = 0;
  for (index_t j = 0; j < x.n; ++j)
    for (index_t i = 0; i < x.m; ++i) {
      const std::size_t at = static_cast<std::size_t>(g.c_offset(i, j));
      const float d = device[at], h = host[at];
      bool ok;
      if (x.order_dependent[static_cast<std::size_t>(i + j * x.m)])
        ok = !std::isfinite(d) && !std::isfinite(h);
      else if (std::isnan(h))
        ok = std::isnan(d);
      else if (!std::isfinite(h) || exact_sums)
        ok = std::memcmp(&d, &h, sizeof d) == 0;
      else
        ok = std::isfinite(d) && std::fabs(static_cast<double>(d) - h) <= 2.0 * bound[i + j * x.m];
      if (!ok && reported++ < 5)
        ADD_FAILURE() << x.name << ": device C(" << i << "," << j << ") = " << d << ", host oracle " << h
                      << ", bound " << bound[i + j * x.m];
    }
  EXPECT_EQ(reported, 0) << x.name << ": " << reported << " entries unlike the host oracle's";
}

// Every case and transpose at m x n x 300 on each fused kernel this GPU runs,
// on the tensor cores (the tuning's small_gemm_fallback off) or with the library's
// own choice (`hand_off`: cuBLAS SGEMM at these sizes for EmulatedFP32).
// `wide` sends EmulatedFP32 to the TF32 path (asserted).
template <class Policy>
void check_on_device(index_t m, index_t n, bool wide, bool hand_off) {
  if (!test::promises_fp32_range<Policy>())
    GTEST_SKIP() << "an FP16-range baseline: inputs up to 65504, overflow as documented";
  constexpr PolicyId id = policy_traits<Policy>::id;
  for (const cuda::Sm90Kernel kernel : test::each_fused_kernel_switch()) {
    const cuda::ScopedTuning forced([&](cuda::Tuning& t) {
      t.sm90_kernel = kernel;
      if (!hand_off) t.small_gemm_fallback = false;
    });
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        const std::uint64_t seed = test::fresh_seed();
        for (test::OverflowCase& x : test::overflow_cases(ta, tb, m, n, 300, wide, seed)) {
          const GemmArgs g = x.args();
          SCOPED_TRACE(x.name + " " + ta + tb + (wide ? " wide" : "") + ", " + test::fused_kernel_switch_label(kernel) +
                       (hand_off ? ", library's hand-off" : ", tensor cores") + ", host runs " +
                       policy_name(test::effective_policy(id, g)) + ", seed " + std::to_string(seed));
          if (wide && id == PolicyId::emulated_fp32) {
            ASSERT_EQ(emulated_fp32_path(ta, tb, m, n, 300, x.a.ptr(), x.a.ld, x.b.ptr(), x.b.ld),
                      EmulationPath::tf32_full_range);
          }
          std::vector<float> host = x.c.data, device = x.c.data;
          test::run_on_host(Policy{}, g, host.data());
          GemmArgs on_device = g;
          on_device.c = device.data();
          test::run_on_device(Policy{}, on_device, nullptr);
          const bool cublas_may_run = id == PolicyId::native_fp32 || hand_off;
          test::check_fp32_behaviour(id, x, device,
                                     cublas_may_run ? test::BetaC::rounded_or_fused : test::BetaC::rounded);
          // NativeFP32 on the GPU is cuBLAS SGEMM, not the host's algorithm: FP32's behaviour
          // above is what it promises.
          if (!hand_off && !cublas_may_run) expect_host_oracle_agrees(id, x, device, host);
          if (::testing::Test::HasFailure()) return;
        }
      }
  }
}

// 200 x 140: several tiles of every kernel.
TYPED_TEST(CudaOverflow, EntriesAreInfNanOrFiniteAsInFp32Gemm) {
  EGEMM_REQUIRE_GPU();
  check_on_device<TypeParam>(200, 140, false, false);
}

// Wide rows: EmulatedFP32 (and NormwiseFP32 where its rows fail the digits)
// on the TF32 path; the digits' and native FP32's wide-spread rows.
TYPED_TEST(CudaOverflow, EntriesAreInfNanOrFiniteAsInFp32GemmWithWideRows) {
  EGEMM_REQUIRE_GPU();
  check_on_device<TypeParam>(200, 140, true, false);
}

// 70 x 50: where EmulatedFP32 (and NormwiseFP32 through it) hands the call
// to cuBLAS SGEMM, the entries are still FP32 gemm's in class and sign.
TYPED_TEST(CudaOverflow, EntriesAreInfNanOrFiniteAsInFp32GemmWhereSgemmTakesTheCall) {
  EGEMM_REQUIRE_GPU();
  check_on_device<TypeParam>(70, 50, false, true);
}

}  // namespace
}  // namespace egemm
