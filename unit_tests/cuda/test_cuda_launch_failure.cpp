// A kernel launch that fails makes the call throw egemm::device_error
// (egemm/errors.hpp); before anything touched C, C is as it was;
// and the next call is unaffected. No real launch fails on demand, so
// the tuning's fault_launch = n makes a call's n-th launch report
// cudaErrorLaunchFailure through the same check a real failure takes (a
// library that ignored the launch status would pass every other test).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "device_support.hpp"
#include "support/matrices.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

template <class Policy>
class CudaLaunchFailure : public ::testing::Test {};

TYPED_TEST_SUITE(CudaLaunchFailure, test::AllPolicyTypes, test::PolicyNames);

// For n = 1, 2, ...: the call throws until n passes the number of launches it
// makes (EGEMM's own: none for NativeFP32's cuBLAS), the first launch's
// failure leaves C's bits as they were, and after every failure the same call
// without the switch gives the right product.
TYPED_TEST(CudaLaunchFailure, ThrowsAndTheNextCallIsUnaffected) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  const test::GemmCase c{'N', 'T', 130, 97, 75, 0.75f, -1.5f, /*pad=*/2};
  test::GemmInputs in = test::make_inputs(c, test::fresh_seed());
  const GemmArgs& g = in.args;
  test::DeviceBuffer<float> a(test::a_elems(g)), b(test::b_elems(g)), dc(test::c_elems(g));
  a.upload(g.a, a.size());
  b.upload(g.b, b.size());
  const std::vector<float> c_before(g.c, g.c + dc.size());
  int launches = 0;
  for (int n = 1; n <= 16; ++n) {
    SCOPED_TRACE("fault_launch = " + std::to_string(n));
    dc.upload(c_before);
    bool threw = false;
    {
      const cuda::ScopedTuning fault([&](cuda::Tuning& t) { t.fault_launch = n; });
      try {
        test::gemm_on_device(TypeParam{}, g, a.get(), b.get(), dc.get(), nullptr);
      } catch (const device_error& e) {
        threw = true;
        EXPECT_NE(std::string(e.what()).find("cudaErrorLaunchFailure"), std::string::npos) << e.what();
      }
      test::cuda_ok(cudaDeviceSynchronize(), "sync");  // what was enqueued before the failure runs on
    }
    if (!threw) {
      launches = n - 1;
      break;
    }
    if (n == 1) {
      const std::vector<float> c_after = dc.download();
      EXPECT_EQ(std::memcmp(c_after.data(), c_before.data(), c_before.size() * sizeof(float)), 0)
          << "the first launch failed, yet C changed";
    }
    test::check_device_gemm(TypeParam{}, c);  // the next call, without the switch
    if (::testing::Test::HasFailure()) return;
  }
  std::printf("%s: %d launches in this call\n", policy_name(policy_traits<TypeParam>::id), launches);
  if (policy_traits<TypeParam>::id == PolicyId::native_fp32)
    EXPECT_EQ(launches, 0) << "NativeFP32 is cuBLAS's: EGEMM launches nothing";
  else
    EXPECT_GE(launches, 2) << "an emulated call launches at least its split and its gemm";
}

}  // namespace
}  // namespace egemm
