// Launches the sm_90a TMA + wgmma kernel per policy: the run-time check that
// the device and the binary have it, EmulatedFP32's tile from the analytic
// model, the 128 x 128 default tile for the other policies, single or paired.
#include <type_traits>
#include <utility>

#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/launch_tma_tile.cuh"

namespace egemm::cuda {
namespace {

using hopper::emulated_fp32_tiles;
using hopper::EmulatedFP32Tile;

constexpr int cmin(int a, int b) { return a < b ? a : b; }

// The other policies' tile: 128 x 128 blocks, one per SM, as many stages as
// fit 227 KiB beside the epilogue's buffers (3 with two pieces, 6 with one:
// Half; 4 with Int8Slices' three pieces of 64-byte rows); TF32 pieces for
// FullRangeTF32x3, INT8 digits for Int8Slices.
template <class Policy, int Cluster>
struct DefaultTile {
  static constexpr int pieces = policy_traits<Policy>::pieces_per_operand;
  static constexpr SplitRule split = policy_traits<Policy>::split;
  static constexpr int element_bytes = split == SplitRule::tf32 ? 4 : split == SplitRule::int8_digits ? 1 : 2;
  static constexpr int row_bytes = split == SplitRule::int8_digits ? 64 : 128;  // Sm90Tile's RowBytes
  static constexpr model::HopperTile shape{"", 128, 128, 2, 1, 1, row_bytes};
  static constexpr int stages = cmin(8, (227 * 1024 - model::hopper_smem_alignment - model::epilogue_bytes(shape) - 16 * 8) /
                                            model::stage_bytes(shape, pieces));
  using type = hopper::Sm90Tile<pieces, 128, 128, stages, 1, Cluster, element_bytes, row_bytes>;
};
static_assert(std::is_same_v<DefaultTile<EmulatedFP32, 1>::type, EmulatedFP32Tile<0>>,
              "EmulatedFP32's first candidate is the default tile");

// Per device: whether it is sm_90 and runs this build's sm_90a code (see kernel_images.hpp).
bool device_runs_sm90a() {
  static PerDevice<bool> runs_per_device;
  return runs_per_device.get([](int) { return kernel_images_have_sm90a_features(); });
}

// The other policies run in clusters of two blocks multicasting op(B)'s boxes:
// measured on an H100 at 8192^3 (perf_tests/gemm_suite), 1.03x (RoundSplit4),
// 1.09x (FullRangeTF32x3) and 1.33x (Half) the single block's speed. The
// tuning's sm90_cluster = 1 runs single blocks, for A/B timing.
int cluster_size() { return tuning().sm90_cluster; }

// Candidate `index` of emulated_fp32_tiles, by a fold over the compile-time indices.
template <int... I>
void launch_emulated_fp32(int index, const FusedLaunch& l, std::integer_sequence<int, I...>) {
  ((index == I ? hopper::launch_emulated_fp32_tile<I>(l) : void()), ...);
}

template <int... I>
int resident_emulated_fp32(int index, std::integer_sequence<int, I...>) {
  int blocks = 0;
  ((index == I ? (blocks = hopper::emulated_fp32_tile_resident_blocks<I>(), 0) : 0), ...);
  return blocks;
}

// EmulatedFP32: the model's tile (or the tuning's sm90_tile); the others: the default tile, paired unless sm90_cluster = 1.
template <class Policy>
void launch(const FusedLaunch& l) {
  if constexpr (std::is_same_v<Policy, EmulatedFP32>) {
    const int index = hopper::emulated_fp32_tile(l.g.m, l.g.n, l.g.k);
    launch_emulated_fp32(index, l, std::make_integer_sequence<int, hopper::emulated_fp32_tile_count>{});
  } else if (cluster_size() == 2) {
    hopper::launch_tma_tile<Policy, typename DefaultTile<Policy, 2>::type>(l);
  } else {
    hopper::launch_tma_tile<Policy, typename DefaultTile<Policy, 1>::type>(l);
  }
}

}  // namespace

namespace hopper {
int emulated_fp32_resident_blocks(int index) {
  return resident_emulated_fp32(index, std::make_integer_sequence<int, emulated_fp32_tile_count>{});
}
}  // namespace hopper

bool tma_kernel_runs_here() { return device_runs_sm90a(); }

template <class Policy>
void TmaKernel<Policy>::launch(const FusedLaunch& l) {
  cuda::launch<Policy>(l);
}

template <class Policy>
KernelFootprint TmaKernel<Policy>::footprint() {
  using Tile = typename DefaultTile<Policy, 1>::type;
  return {Tile::bm, Tile::bn, hopper::resident_blocks<Policy, Tile>() / device_facts().sms};
}

// Every policy with a fused kernel of its own (kernel_dispatch.cu's table).
template struct TmaKernel<EmulatedFP32>;
template struct TmaKernel<RoundSplit4>;
template struct TmaKernel<TruncateSplit4>;
template struct TmaKernel<Half>;
template struct TmaKernel<FullRangeTF32x3>;
template struct TmaKernel<Int8Slices>;

}  // namespace egemm::cuda
