// The configurations the Hopper kernel is built in, as the analytic model
// (src/egemm/model/hopper_tiles.hpp) sees them, and the launch of one.
// EmulatedFP32 is built in every candidate and runs the model's pick per
// call; the other policies use 128 x 128 tiles with as many stages as fit, in
// clusters of two (single blocks with the tuning's sm90_cluster = 1).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "egemm/model/hopper_tiles.hpp"

namespace egemm::cuda::hopper {

// Block tiles 128 x 128 (two consumer warpgroups of m64n128), 128 x 64 (two of
// m64n64) and 64 x 128 (one), rings of 2 to 4 stages (64, 48 and 48 KiB a
// stage with two pieces), one block per SM or two sharing it, and 128 x 128
// in clusters of two sharing op(B). Larger tiles do not fit EmulatedFP32's
// three 64 x bn sums per consumer thread.
inline constexpr model::HopperTile emulated_fp32_tiles[] = {
    {"128x128x3", 128, 128, 3, 1}, {"128x128x2", 128, 128, 2, 1},     {"128x64x4", 128, 64, 4, 1},
    {"128x64x3", 128, 64, 3, 1},   {"128x64x2", 128, 64, 2, 1},       {"64x128x4", 64, 128, 4, 1},
    {"64x128x2", 64, 128, 2, 1},   {"64x128x2/2", 64, 128, 2, 2},     {"128x128x3c2", 128, 128, 3, 1, 2},
};
inline constexpr int emulated_fp32_tile_count = sizeof(emulated_fp32_tiles) / sizeof(emulated_fp32_tiles[0]);

// EmulatedFP32 on candidate `Index` of emulated_fp32_tiles (instantiated in
// tiles_*.cu, a few per file so builds run in parallel; emulated_fp32_tile.cuh).
template <int Index>
void launch_emulated_fp32_tile(const FusedLaunch& l);

// Blocks of candidate `Index` the GPU holds at once: its persistent grid
// (whole clusters, as the GPCs can place them, for a cluster tile).
template <int Index>
int emulated_fp32_tile_resident_blocks();

// The same for a candidate chosen at run time (the tile sweep reports it).
int emulated_fp32_resident_blocks(int index);

}  // namespace egemm::cuda::hopper
