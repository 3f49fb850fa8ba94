// EmulatedFP32's Hopper kernel in the 128x64 candidates of emulated_fp32_tiles.
#include "backends/cuda/sm90/emulated_fp32_tile.cuh"

namespace egemm::cuda::hopper {

template void launch_emulated_fp32_tile<2>(const FusedLaunch&);
template void launch_emulated_fp32_tile<3>(const FusedLaunch&);
template void launch_emulated_fp32_tile<4>(const FusedLaunch&);
template int emulated_fp32_tile_resident_blocks<2>();
template int emulated_fp32_tile_resident_blocks<3>();
template int emulated_fp32_tile_resident_blocks<4>();

}  // namespace egemm::cuda::hopper
