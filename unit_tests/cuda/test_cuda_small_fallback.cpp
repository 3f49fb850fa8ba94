// EmulatedFP32 where it cannot win (a C too small to fill the GPU, too thin
// for the split to pay, or too shallow for the kernel to) runs cuBLAS SGEMM (faster there, FP32-accurate
// by definition); EGEMM_SMALL_GEMM_FALLBACK=0 turns that off. Every other GPU test runs with it off, so the tensor-core kernels are
// exercised at every size; the test here turns it on where it checks it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

const bool kernels_at_every_size = [] { return setenv("EGEMM_SMALL_GEMM_FALLBACK", "0", 1) == 0; }();

// C of EmulatedFP32 and of NativeFP32 (cuBLAS SGEMM) on the same device inputs.
std::pair<std::vector<float>, std::vector<float>> emulated_and_sgemm(index_t m, index_t n, index_t k) {
  const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n));
  const auto poisoned_product = [&](auto tag) {  // beta = 0 over NaN: an entry left unwritten shows
    test::cuda_ok(cudaMemset(dc.get(), 0xff, dc.size() * sizeof(float)), "poison C");
    gemm(tag, 'N', 'N', m, n, k, 1.0f, da.get(), m, db.get(), k, 0.0f, dc.get(), m, nullptr);
    return dc.download();
  };
  std::vector<float> emulated = poisoned_product(EmulatedFP32{});
  return {emulated, poisoned_product(NativeFP32{})};
}

TEST(CudaEmulatedFP32, SmallProblemsRunSgemmOnlyWhenTheFallbackIsOn) {
  EGEMM_REQUIRE_GPU();
  ASSERT_TRUE(kernels_at_every_size);
  {
    const cuda::ScopedTuning on([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
    auto [small_emulated, small_sgemm] = emulated_and_sgemm(256, 256, 300);  // a handful of tiles
    EXPECT_EQ(small_emulated, small_sgemm) << "with a handful of tiles EmulatedFP32 should be SGEMM, bit for bit";
    auto [big_emulated, big_sgemm] = emulated_and_sgemm(4096, 4096, 512);  // thousands of tiles, deep enough
    EXPECT_NE(big_emulated, big_sgemm) << "a C that fills the GPU should run the emulation";
    EXPECT_TRUE(emulated_fp32_uses_tensor_cores(4096, 4096, 512));
    // Enough tiles for a wave, but 64 rows: the split costs more than the tensor cores save.
    auto [thin_emulated, thin_sgemm] = emulated_and_sgemm(64, 65536, 512);
    EXPECT_EQ(thin_emulated, thin_sgemm) << "a 64-row C should be SGEMM, bit for bit (crossover model)";
    EXPECT_FALSE(emulated_fp32_uses_tensor_cores(64, 65536, 512));
    // Enough tiles, but k = 64: each tile's fixed cost outweighs the tensor cores' gain.
    auto [shallow_emulated, shallow_sgemm] = emulated_and_sgemm(4096, 4096, 64);
    EXPECT_EQ(shallow_emulated, shallow_sgemm) << "a k = 64 product should be SGEMM, bit for bit (crossover model)";
    EXPECT_FALSE(emulated_fp32_uses_tensor_cores(4096, 4096, 64));
  }
  auto [emulated, sgemm] = emulated_and_sgemm(256, 256, 300);
  EXPECT_NE(emulated, sgemm) << "with the fallback off, small problems run the emulation too";
}

// Half a wave of deep tiles still pays on the Hopper kernel: 1024^3 (64
// tiles for an H200's 132 slots) ran at 1.5-1.6x SGEMM's speed there, and
// the crossover model, counting the idle slots, keeps it on the tensor
// cores; 1024 x 1024 x 512 (0.85x) and 768^3 (0.94x) go to SGEMM.
TEST(CudaEmulatedFP32, HalfAWaveOfDeepTilesStaysOnTheHopperKernel) {
  EGEMM_REQUIRE_GPU();
  if (cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) != cuda::FusedKernel::wgmma_tma_sm90)
    GTEST_SKIP() << "the Hopper kernel does not run on this GPU";
  const cuda::ScopedTuning on([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  EXPECT_TRUE(emulated_fp32_uses_tensor_cores(1024, 1024, 1024));
  EXPECT_TRUE(emulated_fp32_uses_tensor_cores(2048, 512, 2048));
  EXPECT_FALSE(emulated_fp32_uses_tensor_cores(1024, 1024, 512));
  EXPECT_FALSE(emulated_fp32_uses_tensor_cores(768, 768, 768));
  auto [emulated, sgemm] = emulated_and_sgemm(1024, 1024, 1024);
  EXPECT_NE(emulated, sgemm) << "1024^3 should run the emulation";
}

}  // namespace
}  // namespace egemm
