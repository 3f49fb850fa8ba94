// The mma.sync kernel (sm_80 and newer) as the dispatch table sees it: per
// policy, the piece format and tile it runs in, its launch and its footprint.
#pragma once

#include <type_traits>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/common/piece_format.hpp"
#include "backends/cuda/sm80/tile_config.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// Policy's pieces on the mma.sync kernel, from its traits: TF32 pieces
// (FullRangeTF32x3) in the TF32 tile, INT8 digits (Int8Slices) in the INT8
// tile, FP16 pieces otherwise: one piece (Half) in the one-piece tile, a main
// term folded each k-step (EmulatedFP32) in the tile with two accumulators,
// four products into one accumulator (RoundSplit4, TruncateSplit4) in the
// plain FP16 tile. Launch and footprint are instantiated in fused_gemm_sm80.cu
// for every policy with a fused kernel of its own.
template <class Policy>
struct Sm80Kernel {
  using traits = policy_traits<Policy>;
  static constexpr bool tf32 = traits::split == SplitRule::tf32;
  static constexpr bool int8 = traits::split == SplitRule::int8_digits;
  using Format = std::conditional_t<tf32, Tf32Format, std::conditional_t<int8, Int8Format, Fp16Format>>;
  using Fp16Choice = std::conditional_t<traits::pieces_per_operand == 1, Fp16OnePieceTile,
                                        std::conditional_t<traits::fold_main_each_k_step, Fp16TwoAccumulatorTile, Fp16Tile>>;
  using Tile = std::conditional_t<tf32, Tf32Tile, std::conditional_t<int8, Int8Tile, Fp16Choice>>;

  static void launch(const FusedLaunch& l);
  static KernelFootprint footprint();
};

}  // namespace egemm::cuda
