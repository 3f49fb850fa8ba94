// Which fused kernel runs: the sm_90a TMA + wgmma kernel on an sm_90 GPU when
// the build holds sm_90a code (FP16 and TF32 pieces), the mma.sync kernel
// otherwise or when the tuning asks for it (Sm90Kernel::mma_sync); all within the bound. The
// Hopper kernel's two epilogues (C staged for TMA stores, or written from
// registers) give the same bits.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/tensor_maps.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"
#include "device_support.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {
namespace {

using cuda::FusedKernel;

const char* kernel_name(FusedKernel k) {
  switch (k) {
    case FusedKernel::wgmma_tma_sm90: return "wgmma_tma_sm90";
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
  const bool switched_off = cuda::tuning_overrides().sm90_kernel == cuda::Sm90Kernel::mma_sync;
  const FusedKernel k = cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled);
  std::printf("EmulatedFP32 fp16_scaled runs on %s\n", kernel_name(k));
  RecordProperty("emulated_fp32_kernel", kernel_name(k));
#if defined(EGEMM_TEST_BUILT_SM90A)
  const bool expect_wgmma = device_is_sm90() && !switched_off;
#else
  const bool expect_wgmma = false;
#endif
  EXPECT_EQ(k, expect_wgmma ? FusedKernel::wgmma_tma_sm90 : FusedKernel::mma_sync_sm80);
  for (PolicyId p : {PolicyId::round_split4, PolicyId::truncate_split4, PolicyId::half, PolicyId::full_range_tf32x3,
                     PolicyId::int8_slices})
    EXPECT_EQ(cuda::fused_kernel_for(p, EmulationPath::fp16_scaled), k) << policy_name(p);
  // TF32 pieces run the same kernel (wgmma m64n128k8.tf32 on sm_90a).
  EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::tf32_full_range), k);
}

// The probes read what the code the driver loaded holds (kernel_images.hpp):
// sm_90a's features on an sm_90 GPU exactly where the build has sm_90a code
// (a build for plain sm_90 has the Hopper kernels' bodies compiled out), and
// griddepcontrol on a Hopper or newer GPU wherever the build has code for it.
TEST(CudaLoadedCode, ProbesFindWhatTheBuildHolds) {
  EGEMM_REQUIRE_GPU();
  int device = 0, major = 0;
  test::cuda_ok(cudaGetDevice(&device), "cudaGetDevice");
  test::cuda_ok(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "attribute");
  const bool sm90a = cuda::kernel_images_have_sm90a_features(), gdc = cuda::kernel_images_have_grid_dependency_control();
  std::printf("loaded code: sm_90a features %d, griddepcontrol %d\n", sm90a, gdc);
#if defined(EGEMM_TEST_BUILT_SM90A)
  EXPECT_EQ(sm90a, device_is_sm90());
#else
  EXPECT_FALSE(sm90a);
#endif
  if (major < 9) EXPECT_FALSE(gdc);
#if defined(EGEMM_TEST_BUILT_SM9X)
  if (major == 9) EXPECT_TRUE(gdc);
#endif
}

// Sm90Kernel::mma_sync forces the mma.sync kernel; results stay within the bound on each (k = 1000: the TMA kernel's
// three-stage ring wraps several times).
TEST(CudaFusedKernel, SwitchForcesMmaSyncAndBothKernelsAgree) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase c{'N', 'T', 300, 260, 1000, 1.0f, 0.5f, 1};
  test::check_device_gemm(EmulatedFP32{}, c);
  {
    const cuda::ScopedTuning off([](cuda::Tuning& t) { t.sm90_kernel = cuda::Sm90Kernel::mma_sync; });
    EXPECT_EQ(cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled), FusedKernel::mma_sync_sm80);
    test::check_device_gemm(EmulatedFP32{}, c);
    test::check_device_gemm(RoundSplit4{}, c);
  }
}

// The policies without a tile model run cluster pairs multicasting op(B)'s
// boxes, or single blocks with the tuning's sm90_cluster = 1; both within the bound.
// m = 300 gives 3 m-tiles (the last pair's second block lies past op(A));
// k = 1000 wraps the ring; TF32 pieces (FullRangeTF32x3) fold over two k-tiles
// of 32 (k is padded to 64, so every fold is whole).
TEST(CudaFusedKernel, PairedAndSingleBlocksStayWithinTheBound) {
  EGEMM_REQUIRE_GPU();
  for (const int cluster : {2, 1}) {
    SCOPED_TRACE("sm90_cluster = " + std::to_string(cluster));
    const cuda::ScopedTuning pairs([&](cuda::Tuning& t) { t.sm90_cluster = cluster; });
    test::check_device_gemm(RoundSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
    test::check_device_gemm(TruncateSplit4{}, {'N', 'N', 300, 130, 333, 1.0f, 0.0f, 0});
    test::check_device_gemm(Half{}, {'T', 'T', 300, 130, 700, 1.0f, 0.5f, 0});
    test::check_device_gemm(FullRangeTF32x3{}, {'T', 'N', 300, 260, 1000, 1.0f, 0.0f, 1});
    test::check_device_gemm(FullRangeTF32x3{}, {'N', 'T', 129, 400, 70, -0.75f, 2.0f, 0});
    if (::testing::Test::HasFailure()) return;
  }
}

// Every tile the analytic model chooses from, forced by the tuning's sm90_tile, on
// a product where persistent blocks take several tiles in turn (1536^2: 144
// tiles of 128 x 128 for 132 SMs, 288 of the smaller ones) and on edges.
TEST(CudaFusedKernel, EveryHopperTileStaysWithinTheBound) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper tiles do not run here";
  std::printf("the model picks %s at 4096^3 and %s at 8192^3 on this GPU\n",
              cuda::hopper::emulated_fp32_tiles[cuda::hopper::emulated_fp32_tile(4096, 4096, 4096)].name,
              cuda::hopper::emulated_fp32_tiles[cuda::hopper::emulated_fp32_tile(8192, 8192, 8192)].name);
  for (int i = 0; i < cuda::hopper::emulated_fp32_tile_count; ++i)
    for (const bool stream_k : {false, true}) {
      const char* name = cuda::hopper::emulated_fp32_tiles[i].name;
      SCOPED_TRACE(std::string(name) + (stream_k ? ", stream-K tail forced" : ", whole tiles"));
      const cuda::ScopedTuning forced([&](cuda::Tuning& t) {
        t.sm90_tile = name;
        t.sm90_stream_k = stream_k ? cuda::StreamK::always : cuda::StreamK::never;
      });
      EXPECT_EQ(cuda::hopper::emulated_fp32_tile(1536, 1536, 200), i);
      test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 1536, 1536, 200, 1.0f, 0.5f, 1});
      test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 129, 65, 1000, -1.0f, 0.0f, 0});     // one tile, 16 k-tiles
      test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 300, 200, 300, 0.5f, -1.0f, 2});  // 3 m-tiles: half a pair
      if (::testing::Test::HasFailure()) return;
    }
}

// TF32 pieces fold every two k-tiles of 32 values; a stream-K stretch may hold
// an odd number of k-tiles, and then ends on a half fold that must still be
// folded (a library that dropped it would pass every other test). A few
// slots (the tuning's sm90_slots) split many tiles' k-tiles
// among them; several slot counts and depths give odd shares on any GPU.
TEST(CudaFusedKernel, StreamKStretchesOfOddLengthFoldTheirLastTf32KTile) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  const cuda::ScopedTuning tail([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::always; });
  for (const int slots : {2, 3, 5, 7}) {
    SCOPED_TRACE("sm90_slots = " + std::to_string(slots));
    const cuda::ScopedTuning cap([&](cuda::Tuning& t) { t.sm90_slots = slots; });
    test::check_device_gemm(FullRangeTF32x3{}, {'N', 'T', 300, 390, 1000, 1.0f, 0.0f, 0});
    test::check_device_gemm(FullRangeTF32x3{}, {'T', 'N', 520, 260, 1100, -0.5f, 0.5f, 1});
    if (::testing::Test::HasFailure()) return;
  }
}

// The stream-K tail (StreamK::always forces it wherever a round is
// partial): whole rounds plus a split rest (2300^2: 324 tiles, 162 pair tiles),
// fewer tiles than slots (all split, several slots per tile), every policy's
// kernel; within the bound, and the same bits on a second run (the fixup adds
// the slots' sums in a fixed order).
TEST(CudaFusedKernel, StreamKTailStaysWithinTheBoundAndRepeatsBitForBit) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  const cuda::ScopedTuning tail([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::always; });
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

// All of C (padding rows included) after EmulatedFP32 on device copies of
// a, b and c_in, C placed `offset` floats into its buffer and followed by
// NaN columns, which must stay as they were (a box clipped wrongly at n
// would write there).
std::vector<float> device_c(const test::Matrix& a, const test::Matrix& b, const std::vector<float>& c_in, index_t m,
                            index_t n, index_t k, index_t ldc, float beta, std::size_t offset = 0) {
  constexpr index_t guard_columns = 40;
  const test::DeviceBuffer<float> da(a.data), db(b.data);
  std::vector<float> buffer(offset, 0.0f);
  buffer.insert(buffer.end(), c_in.begin(), c_in.end());
  buffer.resize(buffer.size() + static_cast<std::size_t>(guard_columns * ldc), std::numeric_limits<float>::quiet_NaN());
  const test::DeviceBuffer<float> dc(buffer);
  gemm(EmulatedFP32{}, 'N', 'T', m, n, k, 0.75f, da.get(), a.ld, db.get(), b.ld, beta, dc.get() + offset, ldc,
       cudaStream_t{});
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  const std::vector<float> after = dc.download();
  const auto c_begin = after.begin() + static_cast<std::ptrdiff_t>(offset);
  const auto c_end = c_begin + static_cast<std::ptrdiff_t>(c_in.size());
  EXPECT_EQ(std::memcmp(&*c_end, &buffer[static_cast<std::size_t>(c_end - after.begin())],
                        static_cast<std::size_t>(after.end() - c_end) * sizeof(float)),
            0)
      << "columns past n were written";
  return {c_begin, c_end};
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// The tuning's sm90_slots caps the persistent grid (SMs left free for other work):
// each tile is still one block's whole k loop, so with the stream-K tail off
// C has the same bits whichever slot takes which tile, down to one slot.
TEST(CudaFusedKernel, CappedPersistentGridWritesTheSameBits) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 1500, n = 1300, k = 400;  // 12 x 11 tiles of 128 x 128: more than one round on few slots
  const test::Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(n, k, gen()),
                     c = test::random_matrix(m, n, gen());
  const cuda::ScopedTuning whole_tiles([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::never; });
  const std::vector<float> all_slots = device_c(a, b, c.data, m, n, k, m, 0.5f);
  for (const int slots : {1, 7, 40}) {
    SCOPED_TRACE("sm90_slots = " + std::to_string(slots));
    const cuda::ScopedTuning cap([&](cuda::Tuning& t) { t.sm90_slots = slots; });
    EXPECT_TRUE(same_bits(device_c(a, b, c.data, m, n, k, m, 0.5f), all_slots)) << "a capped grid changed C";
    test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 700, 900, 300, -1.0f, 0.0f, 0});
    if (::testing::Test::HasFailure()) return;
  }
}

// The staged epilogue (each consumer's part of C through the tile's last
// stage and TMA stores; C 16-byte aligned, ldc a multiple of 4) and the one
// writing C from registers (the tuning's sm90_c_through_tma = false, or a C TMA cannot
// address) do the same arithmetic: the same bits in all of C, padding rows
// included, on every tile. m and n end inside tiles (and inside a 32-row
// box); beta != 0 over an Inf column and a wide row recomputed in float64,
// entries the kernel must leave as they were for the passes after it;
// beta = 0 over NaN, which must not leak in. And within the bound.
TEST(CudaFusedKernel, StagedAndRegisterEpiloguesWriteTheSameBits) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel does not run here";
  std::mt19937_64 gen(test::fresh_seed());
  const index_t m = 1000, n = 700, k = 300, ldc = 1004;
  test::Matrix a = test::random_matrix(m, k, gen()), b = test::random_matrix(n, k, gen());
  a(17, 5) = 3e-12f;                                     // a wide row: float64 entries after the kernel
  b(333, 9) = std::numeric_limits<float>::infinity();    // an Inf column: FP32's entries after the kernel
  ASSERT_EQ(emulated_fp32_path('N', 'T', m, n, k, a.ptr(), a.ld, b.ptr(), b.ld), EmulationPath::fp16_scaled);
  const test::Matrix c = test::random_matrix(m, n, gen(), ldc);  // NaN in the padding rows
  const std::vector<float> nan_c(c.data.size(), std::numeric_limits<float>::quiet_NaN());
  {
    const test::DeviceBuffer<float> aligned(16), shifted(17);
    const GemmArgs on = make_gemm_args("test", 'N', 'T', m, n, k, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, aligned.get(), ldc);
    const GemmArgs off = make_gemm_args("test", 'N', 'T', m, n, k, 1.0f, a.ptr(), a.ld, b.ptr(), b.ld, 0.0f, shifted.get() + 1, ldc);
    ASSERT_TRUE(cuda::hopper::c_map_possible(on)) << "this C should take the staged epilogue";
    ASSERT_FALSE(cuda::hopper::c_map_possible(off)) << "C 4 bytes off a 16-byte boundary cannot be a TMA tensor";
  }
  for (int i = 0; i < cuda::hopper::emulated_fp32_tile_count; ++i) {
    const char* name = cuda::hopper::emulated_fp32_tiles[i].name;
    SCOPED_TRACE(name);
    const cuda::ScopedTuning forced([&](cuda::Tuning& t) { t.sm90_tile = name; });
    for (const float beta : {-1.5f, 0.0f}) {
      SCOPED_TRACE("beta = " + std::to_string(beta));
      const std::vector<float>& c_in = beta == 0.0f ? nan_c : c.data;
      const std::vector<float> staged = device_c(a, b, c_in, m, n, k, ldc, beta);
      std::vector<float> from_registers;
      {
        const cuda::ScopedTuning registers([](cuda::Tuning& t) { t.sm90_c_through_tma = false; });
        from_registers = device_c(a, b, c_in, m, n, k, ldc, beta);
      }
      EXPECT_TRUE(same_bits(staged, from_registers)) << "the staged epilogue's C differs from the register one's";
      EXPECT_TRUE(same_bits(staged, device_c(a, b, c_in, m, n, k, ldc, beta, 1)))
          << "C one float off a 16-byte boundary (written from registers) differs";
      if (::testing::Test::HasFailure()) return;
    }
    test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 1000, 300, 200, -1.0f, 0.5f, 4});  // ldc = 1004: staged
  }
}

// A name that is not a tile is refused before C is touched.
TEST(CudaFusedKernel, UnknownHopperTileIsRefusedAndCStaysUntouched) {
  EGEMM_REQUIRE_GPU();
  if (!test::hopper_kernel_runs_here()) GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper tiles do not run here";
  const cuda::ScopedTuning forced([](cuda::Tuning& t) { t.sm90_tile = "256x256x9"; });
  const std::vector<float> host(64 * 64, 0.5f), poison(64 * 64, -7.0f);
  const test::DeviceBuffer<float> a(host), b(host), c(poison);
  try {
    gemm(EmulatedFP32{}, 'N', 'N', 64, 64, 64, 1.0f, a.get(), 64, b.get(), 64, 1.0f, c.get(), 64, cudaStream_t{});
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    ADD_FAILURE() << "an unknown Hopper tile ran";
  } catch (const invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("128x128x3"), std::string::npos) << e.what();  // lists the tiles
  }
  EXPECT_EQ(c.download(), poison);
}

}  // namespace
}  // namespace egemm
