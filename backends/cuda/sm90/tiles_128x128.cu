// EmulatedFP32's Hopper kernel in the 128x128 candidates of emulated_fp32_tiles.
#include "backends/cuda/sm90/emulated_fp32_tile.cuh"

namespace egemm::cuda::hopper {

template void launch_emulated_fp32_tile<0>(const FusedLaunch&);
template void launch_emulated_fp32_tile<1>(const FusedLaunch&);
template void launch_emulated_fp32_tile<8>(const FusedLaunch&);
template int emulated_fp32_tile_resident_blocks<0>();
template int emulated_fp32_tile_resident_blocks<1>();
template int emulated_fp32_tile_resident_blocks<8>();

}  // namespace egemm::cuda::hopper
