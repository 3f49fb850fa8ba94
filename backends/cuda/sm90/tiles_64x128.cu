// EmulatedFP32's Hopper kernel in the 64x128 candidates of emulated_fp32_tiles.
#include "backends/cuda/sm90/emulated_fp32_tile.cuh"

namespace egemm::cuda::hopper {

template void launch_emulated_fp32_tile<5>(const FusedLaunch&);
template void launch_emulated_fp32_tile<6>(const FusedLaunch&);
template void launch_emulated_fp32_tile<7>(const FusedLaunch&);
template int emulated_fp32_tile_resident_blocks<5>();
template int emulated_fp32_tile_resident_blocks<6>();
template int emulated_fp32_tile_resident_blocks<7>();

}  // namespace egemm::cuda::hopper
