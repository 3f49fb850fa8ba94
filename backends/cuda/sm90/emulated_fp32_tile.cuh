// The definition behind launch_emulated_fp32_tile, for the tiles_*.cu files
// that instantiate it (the dispatcher sees only the declaration, so each
// candidate compiles once, in its own file).
#pragma once

#include "backends/cuda/sm90/launch_tma_tile.cuh"

namespace egemm::cuda::hopper {

template <int Index>
void launch_emulated_fp32_tile(const FusedLaunch& l) {
  // The launch's stream-K verdict prices the shape the tile pick was made with.
  constexpr model::EmulationShape s = emulation_shape<EmulatedFP32, EmulatedFP32Tile<Index>>();
  static_assert(s.pieces == emulated_fp32_shape.pieces && s.products == emulated_fp32_shape.products &&
                    s.sums == emulated_fp32_shape.sums && s.folds_main == emulated_fp32_shape.folds_main,
                "emulated_fp32_shape is what the kernel runs");
  launch_tma_tile<EmulatedFP32, EmulatedFP32Tile<Index>>(l);
}

template <int Index>
int emulated_fp32_tile_resident_blocks() {
  return resident_blocks<EmulatedFP32, EmulatedFP32Tile<Index>>();
}

}  // namespace egemm::cuda::hopper
