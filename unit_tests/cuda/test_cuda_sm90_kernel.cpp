// Which fused kernel runs: the sm_90a TMA + wgmma kernel on an sm_90 GPU when
// the build holds sm_90a code (FP16 and TF32 pieces), the mma.sync kernel
// otherwise or when EGEMM_SM90_KERNEL=0 asks for it, EmulatedFP32's cp.async
// wgmma kernel with EGEMM_SM90_KERNEL=cp_async; all within the bound.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "backends/cuda/fused_gemm.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"
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
  for (PolicyId p : {PolicyId::round_split4, PolicyId::truncate_split4, PolicyId::half, PolicyId::full_range_tf32x3})
    EXPECT_EQ(cuda::fused_kernel_for(p, EmulationPath::fp16_scaled), k) << policy_name(p);
  // TF32 pieces run the same kernel (wgmma m64n128k8.tf32 on sm_90a).
  EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::tf32_full_range), k);
}

// EGEMM_SM90_KERNEL=0 forces the mma.sync kernel, =cp_async the other wgmma
// kernel; results stay within the bound on each (k = 1000: the TMA kernel's
// three-stage ring wraps several times).
TEST(CudaFusedKernel, SwitchForcesMmaSyncAndBothKernelsAgree) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase c{'N', 'T', 300, 260, 1000, 1.0f, 0.5f, 1};
  test::check_device_gemm(EmulatedFP32{}, c);
  {
    const test::ScopedEnv off("EGEMM_SM90_KERNEL", "0");
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled), FusedKernel::mma_sync_sm80);
    test::check_device_gemm(EmulatedFP32{}, c);
    test::check_device_gemm(RoundSplit4{}, c);
  }
  if (cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) == FusedKernel::wgmma_tma_sm90) {
    const test::ScopedEnv cp_async("EGEMM_SM90_KERNEL", "cp_async");
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled),
              FusedKernel::wgmma_cp_async_sm90);
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::half, EmulationPath::fp16_scaled), FusedKernel::wgmma_tma_sm90);
    test::check_device_gemm(EmulatedFP32{}, c);
  }
}

// The policies without a tile model run cluster pairs multicasting op(B)'s
// boxes, or single blocks with EGEMM_SM90_CLUSTER=1; both within the bound.
// m = 300 gives 3 m-tiles (the last pair's second block lies past op(A));
// k = 1000 wraps the ring; TF32 pieces (FullRangeTF32x3) fold over two k-tiles
// of 32 (k is padded to 64, so every fold is whole).
TEST(CudaFusedKernel, PairedAndSingleBlocksStayWithinTheBound) {
  EGEMM_REQUIRE_GPU();
  for (const char* cluster : {"2", "1"}) {
    SCOPED_TRACE(std::string("EGEMM_SM90_CLUSTER=") + cluster);
    const test::ScopedEnv pairs("EGEMM_SM90_CLUSTER", cluster);
    test::check_device_gemm(RoundSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
    test::check_device_gemm(TruncateSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
    test::check_device_gemm(Half{}, {'T', 'T', 300, 130, 700, 1.0f, 0.5f, 0});
    test::check_device_gemm(FullRangeTF32x3{}, {'T', 'N', 300, 260, 1000, 1.0f, 0.0f, 1});
    test::check_device_gemm(FullRangeTF32x3{}, {'N', 'T', 129, 400, 70, -0.75f, 2.0f, 0});
    if (::testing::Test::HasFailure()) return;
  }
}

bool hopper_kernel_runs_here() {
  return cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) == FusedKernel::wgmma_tma_sm90;
}

// Every tile the analytic model chooses from, forced by EGEMM_SM90_TILE, on
// a product where persistent blocks take several tiles in turn (1536^2: 144
// tiles of 128 x 128 for 132 SMs, 288 of the smaller ones) and on edges.
TEST(CudaFusedKernel, EveryHopperTileStaysWithinTheBound) {
  EGEMM_REQUIRE_GPU();
  if (!hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper tiles do not run here";
  std::printf("the model picks %s at 4096^3 and %s at 8192^3 on this GPU\n",
              cuda::hopper::emulated_fp32_tiles[cuda::hopper::emulated_fp32_tile(4096, 4096, 4096)].name,
              cuda::hopper::emulated_fp32_tiles[cuda::hopper::emulated_fp32_tile(8192, 8192, 8192)].name);
  for (int i = 0; i < cuda::hopper::emulated_fp32_tile_count; ++i)
    for (const char* stream_k : {"0", "1"}) {
      const char* name = cuda::hopper::emulated_fp32_tiles[i].name;
      SCOPED_TRACE(std::string(name) + ", EGEMM_SM90_STREAM_K=" + stream_k);
      const test::ScopedEnv forced("EGEMM_SM90_TILE", name), tail("EGEMM_SM90_STREAM_K", stream_k);
      EXPECT_EQ(cuda::hopper::emulated_fp32_tile(1536, 1536, 200), i);
      test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 1536, 1536, 200, 1.0f, 0.5f, 1});
      test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 129, 65, 1000, -1.0f, 0.0f, 0});     // one tile, 16 k-tiles
      test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 300, 200, 300, 0.5f, -1.0f, 2});  // 3 m-tiles: half a pair
      if (::testing::Test::HasFailure()) return;
    }
}

// The stream-K tail (EGEMM_SM90_STREAM_K=1 forces it wherever a round is
// partial): whole rounds plus a split rest (2300^2: 324 tiles, 162 pair tiles),
// fewer tiles than slots (all split, several slots per tile), every policy's
// kernel; within the bound, and the same bits on a second run (the fixup adds
// the slots' sums in a fixed order).
TEST(CudaFusedKernel, StreamKTailStaysWithinTheBoundAndRepeatsBitForBit) {
  EGEMM_REQUIRE_GPU();
  if (!hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  const test::ScopedEnv tail("EGEMM_SM90_STREAM_K", "1");
  test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 2300, 2300, 1100, 1.0f, 0.5f, 1});
  test::check_device_gemm(EmulatedFP32{}, {'T', 'T', 1000, 700, 3000, -0.5f, 0.0f, 0});
  test::check_device_gemm(RoundSplit4{}, {'N', 'N', 2300, 1300, 700, 1.0f, 1.0f, 0});
  test::check_device_gemm(Half{}, {'N', 'N', 700, 1300, 2000, 1.0f, 0.0f, 0});
  test::check_device_gemm(FullRangeTF32x3{}, {'T', 'N', 1000, 700, 1500, 1.0f, 0.0f, 1});

  const int m = 2300, n = 1900, k = 900;
  const test::DeviceBuffer<float> da(test::random_matrix(m, k, test::fresh_seed()).data),
      db(test::random_matrix(k, n, test::fresh_seed()).data);
  std::vector<float> first;
  for (int run = 0; run < 2; ++run) {
    const test::DeviceBuffer<float> dc(std::vector<float>(std::size_t{m} * n, -7.0f));
    gemm(EmulatedFP32{}, 'N', 'N', m, n, k, 1.0f, da.get(), m, db.get(), k, 0.0f, dc.get(), m, cudaStream_t{});
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    if (run == 0)
      first = dc.download();
    else
      EXPECT_TRUE(dc.download() == first) << "the stream-K tail's sums changed from one run to the next";
  }
}

// A name that is not a tile is refused before C is touched.
TEST(CudaFusedKernel, UnknownHopperTileIsRefusedAndCStaysUntouched) {
  EGEMM_REQUIRE_GPU();
  if (!hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper tiles do not run here";
  const test::ScopedEnv forced("EGEMM_SM90_TILE", "256x256x9");
  const std::vector<float> host(64 * 64, 0.5f), poison(64 * 64, -7.0f);
  const test::DeviceBuffer<float> a(host), b(host), c(poison);
  try {
    gemm(EmulatedFP32{}, 'N', 'N', 64, 64, 64, 1.0f, a.get(), 64, b.get(), 64, 1.0f, c.get(), 64, cudaStream_t{});
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    ADD_FAILURE() << "an unknown EGEMM_SM90_TILE ran";
  } catch (const invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("128x128x3"), std::string::npos) << e.what();  // lists the tiles
  }
  EXPECT_EQ(c.download(), poison);
}

}  // namespace
}  // namespace egemm
