// The definition behind launch_emulated_fp32_tile, for the tiles_*.cu files
// that instantiate it (the dispatcher sees only the declaration, so each
// candidate compiles once, in its own file).
#pragma once

#include "backends/cuda/sm90/launch_tma_tile.cuh"

namespace egemm::cuda::hopper {

template <int Index>
void launch_emulated_fp32_tile(const TmaLaunch& l) {
  launch_tma_tile<EmulatedFP32, EmulatedFP32Tile<Index>>(l);
}

template <int Index>
int emulated_fp32_tile_resident_blocks() {
  return resident_blocks<EmulatedFP32, EmulatedFP32Tile<Index>>();
}

}  // namespace egemm::cuda::hopper
