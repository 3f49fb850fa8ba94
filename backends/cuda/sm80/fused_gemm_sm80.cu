// Instantiates and launches the fused gemm kernel: FP16 pieces for the
// EmulatedFP32 (scaled), RoundSplit4, TruncateSplit4 and Half policies, TF32
// pieces for the full-range path, INT8 digits for Int8Slices.
#include <string>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/sm80/fused_gemm_kernel.cuh"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/sm80/tile_config.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

template <class Policy, class Format, class Tile>
void launch(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g, const std::uint32_t* path_word,
            EmulationPath path, cudaStream_t stream) {
  using traits = policy_traits<Policy>;
  constexpr int smem_bytes = StageLayout<Tile, traits::pieces_per_operand>::bytes;
  static_assert(smem_bytes <= 99 * 1024, "the pipeline must fit every sm_80+ GPU's per-block shared memory");
  const auto kernel = fused_gemm_kernel<Policy, Format, Tile>;
  static PerDevice<bool> opted_in;
  allow_dynamic_smem(opted_in, kernel, smem_bytes);

  static_assert(split_row_multiple % Tile::bm == 0 && split_row_multiple % Tile::bn == 0, "padding fits the tiles");
  static_assert(split_depth_multiple_for(traits::split) * sizeof(typename Format::storage) % Tile::row_bytes == 0,
                "k padding fits");
  const FusedGemmParams p = fused_gemm_params(a, b, g, path_word, path, Tile::bm, Tile::bn);
  const dim3 grid(static_cast<unsigned>(static_cast<index_t>(p.tiles_m) * p.tiles_n));
  launch_plain(kernel, grid, dim3(Tile::threads), smem_bytes, stream, p);
}

// Blocks of `kernel` one SM holds at once (queried once per device and kernel).
template <class Policy, class Format, class Tile>
int resident_blocks_per_sm() {
  static PerDevice<int> blocks_per_device;
  return blocks_per_device.get([](int) {
    constexpr int smem_bytes = StageLayout<Tile, policy_traits<Policy>::pieces_per_operand>::bytes;
    return cuda::resident_blocks_per_sm(fused_gemm_kernel<Policy, Format, Tile>, Tile::threads, smem_bytes);
  });
}

}  // namespace

FusedKernel fused_kernel_for(PolicyId policy, EmulationPath path) {
  (void)path;
  return tma_kernel_runs(policy) ? FusedKernel::wgmma_tma_sm90 : FusedKernel::mma_sync_sm80;
}

bool emulated_fp32_fills_the_gpu(FusedKernel kernel, index_t m, index_t n) {
  const int sms = device_facts().sms;
  KernelFootprint f{};
  switch (kernel) {
    case FusedKernel::wgmma_tma_sm90: f = tma_footprint(PolicyId::emulated_fp32); break;
    case FusedKernel::mma_sync_sm80: {
      using Tile = Fp16TwoAccumulatorTile;
      f = {Tile::bm, Tile::bn, resident_blocks_per_sm<EmulatedFP32, Fp16Format, Tile>()};
      break;
    }
  }
  const index_t tiles = ((m + f.bm - 1) / f.bm) * ((n + f.bn - 1) / f.bn);
  return tiles >= static_cast<index_t>(sms) * f.blocks_per_sm;
}

void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                       cudaStream_t stream) {
  // The wgmma kernels need at least one k-tile (the TMA kernel's sums start in the first).
  if (a.depth_pad > 0) {
    switch (fused_kernel_for(policy, path)) {
      case FusedKernel::wgmma_tma_sm90:
        return launch_fused_gemm_tma(policy, a, b, g, path_word, path, scratch, stream);
      case FusedKernel::mma_sync_sm80: break;
    }
  }
  if (scratch.measures_only()) return;  // the mma.sync kernel takes no scratch
  switch (policy) {
    case PolicyId::emulated_fp32:
      if (path == EmulationPath::tf32_full_range)
        return launch<FullRangeTF32x3, Tf32Format, Tf32Tile>(a, b, g, path_word, path, stream);
      return launch<EmulatedFP32, Fp16Format, Fp16TwoAccumulatorTile>(a, b, g, path_word, path, stream);
    case PolicyId::full_range_tf32x3:
      return launch<FullRangeTF32x3, Tf32Format, Tf32Tile>(a, b, g, path_word, path, stream);
    case PolicyId::round_split4: return launch<RoundSplit4, Fp16Format, Fp16Tile>(a, b, g, path_word, path, stream);
    case PolicyId::truncate_split4:
      return launch<TruncateSplit4, Fp16Format, Fp16Tile>(a, b, g, path_word, path, stream);
    case PolicyId::half: return launch<Half, Fp16Format, Fp16OnePieceTile>(a, b, g, path_word, path, stream);
    case PolicyId::int8_slices: return launch<Int8Slices, Int8Format, Int8Tile>(a, b, g, path_word, path, stream);
    case PolicyId::native_fp32:
    case PolicyId::normwise_fp32: break;  // its kernels are Int8Slices' and EmulatedFP32's
  }
  throw invalid_argument(std::string("egemm::cuda::launch_fused_gemm: no fused kernel for ") + policy_name(policy));
}

void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, cudaStream_t stream) {
  enqueue_with_workspace(stream, [&](WorkspaceCarver& scratch) {
    launch_fused_gemm(policy, a, b, g, path_word, path, scratch, stream);
  });
}

}  // namespace egemm::cuda
