// Which fused kernel runs: the sm_90a TMA + wgmma kernel on an sm_90 GPU when
// the build holds sm_90a code (FP16 pieces only), the mma.sync kernel
// otherwise or when EGEMM_SM90_KERNEL=0 asks for it, EmulatedFP32's cp.async
// wgmma kernel with EGEMM_SM90_KERNEL=cp_async; all within the bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "backends/cuda/fused_gemm.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

using cuda::FusedKernel;

const char* kernel_name(FusedKernel k) {
  switch (k) {
    case FusedKernel::wgmma_tma_sm90: return "wgmma_tma_sm90";
    case FusedKernel::wgmma_cp_async_sm90: return "wgmma_cp_async_sm90";
    case FusedKernel::mma_sync_sm80: break;
  }
  return "mma_sync_sm80";
}

bool device_is_sm90() {
  int device = 0, major = 0, minor = 0;
  test::cuda_ok(cudaGetDevice(&device), "cudaGetDevice");
  test::cuda_ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "attribute");
  test::cuda_ok(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "attribute");
  return major == 9 && minor == 0;
}

// Sets an environment variable for one scope, restoring the old value after.
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

TEST(CudaFusedKernel, WgmmaOnSm90WhereBuiltMmaSyncElsewhere) {
  EGEMM_REQUIRE_GPU();
  const char* forced = std::getenv("EGEMM_SM90_KERNEL");
  const bool switched_off = forced != nullptr && std::string(forced) == "0";
  const FusedKernel k = cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled);
  std::printf("EmulatedFP32 fp16_scaled runs on %s\n", kernel_name(k));
  RecordProperty("emulated_fp32_kernel", kernel_name(k));
#if defined(EGEMM_TEST_BUILT_SM90A)
  const bool expect_wgmma = device_is_sm90() && !switched_off;
#else
  const bool expect_wgmma = false;
#endif
  EXPECT_EQ(k, expect_wgmma ? FusedKernel::wgmma_tma_sm90 : FusedKernel::mma_sync_sm80);
  for (PolicyId p : {PolicyId::round_split4, PolicyId::truncate_split4, PolicyId::half})
    EXPECT_EQ(cuda::fused_kernel_for(p, EmulationPath::fp16_scaled), k) << policy_name(p);
  // TF32 pieces always run the mma.sync kernel.
  EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::tf32_full_range), FusedKernel::mma_sync_sm80);
  EXPECT_EQ(cuda::fused_kernel_for(PolicyId::full_range_tf32x3, EmulationPath::fp16_scaled), FusedKernel::mma_sync_sm80);
}

// EGEMM_SM90_KERNEL=0 forces the mma.sync kernel, =cp_async the other wgmma
// kernel; results stay within the bound on each (k = 1000: the TMA kernel's
// three-stage ring wraps several times).
TEST(CudaFusedKernel, SwitchForcesMmaSyncAndBothKernelsAgree) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase c{'N', 'T', 300, 260, 1000, 1.0f, 0.5f, 1};
  test::check_device_gemm(EmulatedFP32{}, c);
  {
    const ScopedEnv off("EGEMM_SM90_KERNEL", "0");
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled), FusedKernel::mma_sync_sm80);
    test::check_device_gemm(EmulatedFP32{}, c);
    test::check_device_gemm(RoundSplit4{}, c);
  }
  if (cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) == FusedKernel::wgmma_tma_sm90) {
    const ScopedEnv cp_async("EGEMM_SM90_KERNEL", "cp_async");
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled),
              FusedKernel::wgmma_cp_async_sm90);
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::half, EmulationPath::fp16_scaled), FusedKernel::wgmma_tma_sm90);
    test::check_device_gemm(EmulatedFP32{}, c);
  }
}

// EGEMM_SM90_CLUSTER=2: blocks pair up in clusters and multicast op(B)'s
// boxes. m = 300 gives 3 m-tiles (the last pair's second block lies past
// op(A)); k = 1000 wraps the ring; every policy the kernel runs.
TEST(CudaFusedKernel, ClusterPairsSharingOpBStayWithinTheBound) {
  EGEMM_REQUIRE_GPU();
  const ScopedEnv pairs("EGEMM_SM90_CLUSTER", "2");
  for (index_t m : {300, 1000}) {
    test::check_device_gemm(EmulatedFP32{}, {'T', 'N', m, 260, 1000, 1.0f, 0.0f, 1});
    if (::testing::Test::HasFailure()) return;
  }
  test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 129, 400, 70, -0.75f, 2.0f, 0});
  test::check_device_gemm(RoundSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
  test::check_device_gemm(TruncateSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
  test::check_device_gemm(Half{}, {'T', 'T', 300, 130, 700, 1.0f, 0.5f, 0});
}

}  // namespace
}  // namespace egemm
