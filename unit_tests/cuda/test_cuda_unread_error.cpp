// A caller's earlier runtime error, left unread in the runtime's last-error
// slot (an ignored cudaErrorPeerAccessAlreadyEnabled, a failed cudaMalloc
// handled by its return code), is not EGEMM's: every kernel a call launches
// is checked by its own status. A check by cudaGetLastError after <<<>>>
// would take that error for the launch's and throw, on some paths after the
// gemm has written C and before its fixups run, on the alpha == 0 path after
// C is scaled (a retry would scale it twice).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

#include "device_support.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

// What a caller that ignored a failed runtime call leaves behind.
void leave_an_unread_error() {
  (void)cudaSetDevice(-1);
  ASSERT_EQ(cudaPeekAtLastError(), cudaErrorInvalidDevice) << "the test could not leave an error unread";
}

template <class Policy>
class CudaUnreadError : public ::testing::Test {
 protected:
  void TearDown() override { (void)cudaGetLastError(); }
};

TYPED_TEST_SUITE(CudaUnreadError, test::AllPolicyTypes, test::PolicyNames);

// Each kernel family (the library's choice and, on Hopper, the mma.sync
// kernel too) and the alpha == 0 path, each call made with the error unread.
TYPED_TEST(CudaUnreadError, IsNotTakenForTheCallsOwn) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning on_tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  for (const cuda::Sm90Kernel kernel : test::each_fused_kernel_switch()) {
    SCOPED_TRACE(test::fused_kernel_switch_label(kernel));
    const cuda::ScopedTuning which([&](cuda::Tuning& t) { t.sm90_kernel = kernel; });
    for (const float alpha : {0.75f, 0.0f}) {
      SCOPED_TRACE("alpha " + std::to_string(alpha));
      const test::GemmCase c{'N', 'T', 130, 97, 75, alpha, -1.5f, /*pad=*/2};
      test::check_gemm(policy_traits<TypeParam>::id, c, [](const GemmArgs& g) {
        leave_an_unread_error();
        test::run_on_device(TypeParam{}, g, nullptr);
      });
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace egemm
