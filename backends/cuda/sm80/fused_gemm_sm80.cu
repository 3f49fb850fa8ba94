// Instantiates and launches the mma.sync fused gemm kernel, per policy in the
// format and tile Sm80Kernel chooses: FP16 pieces for EmulatedFP32 (scaled),
// RoundSplit4, TruncateSplit4 and Half, TF32 pieces for FullRangeTF32x3 (and
// EmulatedFP32's full-range path), INT8 digits for Int8Slices.
#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/sm80/fused_gemm_kernel.cuh"
#include "backends/cuda/sm80/fused_gemm_sm80.hpp"
#include "backends/cuda/sm80/tile_config.hpp"

namespace egemm::cuda {
namespace {

template <class Policy, class Format, class Tile>
void launch(const FusedLaunch& l) {
  using traits = policy_traits<Policy>;
  constexpr int smem_bytes = StageLayout<Tile, traits::pieces_per_operand>::bytes;
  static_assert(smem_bytes <= 99 * 1024, "the pipeline must fit every sm_80+ GPU's per-block shared memory");
  const auto kernel = fused_gemm_kernel<Policy, Format, Tile>;
  static PerDevice<bool> opted_in;
  allow_dynamic_smem(opted_in, kernel, smem_bytes);

  static_assert(split_row_multiple % Tile::bm == 0 && split_row_multiple % Tile::bn == 0, "padding fits the tiles");
  static_assert(split_depth_multiple_for(traits::split) * sizeof(typename Format::storage) % Tile::row_bytes == 0,
                "k padding fits");
  const FusedGemmParams p = fused_gemm_params(l.a, l.b, l.g, l.path_word, l.path, Tile::bm, Tile::bn);
  const dim3 grid(static_cast<unsigned>(static_cast<index_t>(p.tiles_m) * p.tiles_n));
  launch_plain(kernel, grid, dim3(Tile::threads), smem_bytes, l.stream, p);
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

template <class Policy>
void Sm80Kernel<Policy>::launch(const FusedLaunch& l) {
  cuda::launch<Policy, Format, Tile>(l);
}

template <class Policy>
KernelFootprint Sm80Kernel<Policy>::footprint() {
  return {Tile::bm, Tile::bn, resident_blocks_per_sm<Policy, Format, Tile>()};
}

// Every policy with a fused kernel of its own (kernel_dispatch.cu's table).
template struct Sm80Kernel<EmulatedFP32>;
template struct Sm80Kernel<RoundSplit4>;
template struct Sm80Kernel<TruncateSplit4>;
template struct Sm80Kernel<Half>;
template struct Sm80Kernel<FullRangeTF32x3>;
template struct Sm80Kernel<Int8Slices>;

}  // namespace egemm::cuda
