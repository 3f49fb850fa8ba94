// Chooses and launches the sm_90a wgmma kernel: the run-time check that the
// device and the binary have it, EmulatedFP32's tile from the analytic model,
// the 128 x 128 default for the other FP16 policies and for clusters.
#include <string>
#include <type_traits>
#include <utility>

#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/launch_tma_tile.cuh"
#include "backends/cuda/runtime/tuning.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

using hopper::emulated_fp32_tiles;
using hopper::EmulatedFP32Tile;
using hopper::TmaLaunch;

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

// Per device: whether it is sm_90 and runs this build's sm_90a code (see loaded_code.hpp).
bool device_runs_sm90a() {
  static PerDevice<bool> runs_per_device;
  return runs_per_device.get([](int) { return kernel_images_have_sm90a_features(); });
}

// The other policies run in clusters of two blocks multicasting op(B)'s boxes:
// on the H100 1.03x (RoundSplit4), 1.09x (FullRangeTF32x3) and 1.33x (Half)
// the single block at 8192^3 (perf_tests/results/2026-11-23-h100-tile-model.md,
// run 6). EGEMM_SM90_CLUSTER=1 runs single blocks, for A/B timing.
int cluster_size() { return switches().sm90_cluster(); }

bool forced_off() { return switches().sm90_kernel() == Sm90Kernel::mma_sync; }

// Candidate `index` of emulated_fp32_tiles, by a fold over the compile-time indices.
template <int... I>
void launch_emulated_fp32(int index, const TmaLaunch& l, std::integer_sequence<int, I...>) {
  ((index == I ? hopper::launch_emulated_fp32_tile<I>(l) : void()), ...);
}

template <int... I>
int resident_emulated_fp32(int index, std::integer_sequence<int, I...>) {
  int blocks = 0;
  ((index == I ? (blocks = hopper::emulated_fp32_tile_resident_blocks<I>(), 0) : 0), ...);
  return blocks;
}

// EmulatedFP32: the model's tile (or EGEMM_SM90_TILE's); the others: the default tile, paired unless EGEMM_SM90_CLUSTER=1.
template <class Policy>
void launch(const TmaLaunch& l) {
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

bool tma_kernel_runs(PolicyId policy) {
  switch (policy) {
    case PolicyId::emulated_fp32:
    case PolicyId::round_split4:
    case PolicyId::truncate_split4:
    case PolicyId::half:
    case PolicyId::full_range_tf32x3:
    case PolicyId::int8_slices: return !forced_off() && device_runs_sm90a();
    case PolicyId::native_fp32:
    case PolicyId::normwise_fp32: break;  // its kernels are Int8Slices' and EmulatedFP32's
  }
  return false;
}

void launch_fused_gemm_tma(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                           const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                           cudaStream_t stream) {
  const TmaLaunch l{a, b, g, path_word, path, scratch, stream};
  switch (policy) {
    case PolicyId::emulated_fp32:  // its full-range path is FullRangeTF32x3's TF32 kernel under its path word
      return path == EmulationPath::tf32_full_range ? launch<FullRangeTF32x3>(l) : launch<EmulatedFP32>(l);
    case PolicyId::round_split4: return launch<RoundSplit4>(l);
    case PolicyId::truncate_split4: return launch<TruncateSplit4>(l);
    case PolicyId::half: return launch<Half>(l);
    case PolicyId::full_range_tf32x3: return launch<FullRangeTF32x3>(l);
    case PolicyId::int8_slices: return launch<Int8Slices>(l);
    case PolicyId::native_fp32:
    case PolicyId::normwise_fp32: break;
  }
  throw invalid_argument(std::string("egemm::cuda::launch_fused_gemm_tma: no wgmma kernel for ") +
                         policy_name(policy));
}

// The default tile, one block per SM by construction (about 200 KiB of shared
// memory, 384 x 168 registers); the occupancy query confirms it on the device at hand.
KernelFootprint tma_footprint(PolicyId policy) {
  (void)policy;  // every FP16 policy has the same default block tile
  using Tile = EmulatedFP32Tile<0>;
  return {Tile::bm, Tile::bn, hopper::resident_blocks<EmulatedFP32, Tile>() / device_facts().sms};
}

}  // namespace egemm::cuda
