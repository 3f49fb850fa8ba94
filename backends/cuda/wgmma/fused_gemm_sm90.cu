#include "backends/cuda/wgmma/fused_gemm_sm90.hpp"


#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/loaded_code.hpp"
#include "backends/cuda/per_device.hpp"
#include "backends/cuda/switches.hpp"
#include "backends/cuda/tile_config.hpp"
#include "backends/cuda/wgmma/fused_gemm_sm90.cuh"

namespace egemm::cuda::sm90 {
namespace {

constexpr int smem_bytes = StageLayout<WarpgroupTile, 2>::bytes + 1024;  // + room to align the base to 1024
const auto kernel = fused_gemm_sm90_kernel<EmulatedFP32>;

static_assert(split_row_multiple % WarpgroupTile::bm == 0 && split_row_multiple % WarpgroupTile::bn == 0,
              "padded rows fill whole tiles");
static_assert(split_depth_multiple * 2 % WarpgroupTile::row_bytes == 0, "padded k fills whole k-tiles");

bool switched_off() { return switches().sm90_kernel() == Sm90Kernel::mma_sync; }

int blocks_per_sm(int) { return cuda::resident_blocks_per_sm(kernel, WarpgroupTile::threads, smem_bytes); }

}  // namespace

bool warpgroup_kernel_usable() {
  static PerDevice<bool> usable;
  return !switched_off() && usable.get([](int) { return loaded_code_has_sm90a_features(); });
}

int resident_blocks_per_sm() {
  static PerDevice<int> blocks;
  return blocks.get(blocks_per_sm);
}

void launch_emulated_fp32(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                          const std::uint32_t* path_word, cudaStream_t stream) {
  static PerDevice<bool> opted_in;
  allow_dynamic_smem(opted_in, kernel, smem_bytes);
  const FusedGemmParams p =
      fused_gemm_params(a, b, g, path_word, EmulationPath::fp16_scaled, WarpgroupTile::bm, WarpgroupTile::bn);
  launch_plain(kernel, dim3(static_cast<unsigned>(static_cast<index_t>(p.tiles_m) * p.tiles_n)),
               dim3(WarpgroupTile::threads), smem_bytes, stream, p);
}

}  // namespace egemm::cuda::sm90
