// EmulatedFP32's FP16 path with the split inside the Hopper kernel
// (split_in_kernel.cuh): whether a call can take it, and its launch.
#include <cstdlib>
#include <cstring>

#include "backends/cuda/sm90/fused_gemm_tma.hpp"
#include "backends/cuda/sm90/launch_tma_tile.cuh"

namespace egemm::cuda {
namespace {

// 128 x 128 blocks, two stages of pieces behind three FP32 half k-tiles.
using SplittingTile = hopper::Sm90Tile<2, 128, 128, 2>;

// EGEMM_SM90_SPLIT=pass keeps the split pass (for A/B timing).
bool split_pass_requested() {
  const char* v = std::getenv("EGEMM_SM90_SPLIT");
  return v != nullptr && std::strcmp(v, "pass") == 0;
}

}  // namespace

bool emulated_fp32_splits_in_kernel(const GemmArgs& g) {
  // A tile forced by EGEMM_SM90_TILE (the tile sweep, the tests) runs on the split pass.
  return g.k > 0 && !split_pass_requested() && std::getenv("EGEMM_SM90_TILE") == nullptr &&
         fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) == FusedKernel::wgmma_tma_sm90 &&
         hopper::tma_reads(g.a_rows()) && hopper::tma_reads(g.b_cols());
}

void launch_emulated_fp32_splitting_gemm(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                                         const std::uint32_t* path_word, cudaStream_t stream) {
  hopper::launch_tma_split_tile<EmulatedFP32, SplittingTile>(
      hopper::TmaLaunch{a, b, g, path_word, EmulationPath::fp16_scaled, stream});
}

}  // namespace egemm::cuda
