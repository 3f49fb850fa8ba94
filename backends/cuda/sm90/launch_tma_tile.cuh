// Launches the Hopper kernel for one policy and tile: the four tensor maps,
// a persistent grid (as many blocks as the SMs hold, at most one per tile),
// clusters when the tile asks for them.
#pragma once

#include <algorithm>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/per_device.hpp"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/fused_gemm_tma_kernel.cuh"
#include "backends/cuda/sm90/tensor_maps.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"
#include "backends/cuda/tile_config.hpp"

namespace egemm::cuda::hopper {

template <class Policy, class Tile>
constexpr auto kernel_of() {
  return tma_wgmma_gemm_kernel<Policy, Tile>;
}

// A launch of `blocks` blocks of the tile, in clusters of Tile::cluster
// (`cluster` holds the attribute the config points to).
template <class Tile>
cudaLaunchConfig_t tile_launch_config(long long blocks, cudaStream_t stream, cudaLaunchAttribute& cluster) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(Tile::threads);
  config.dynamicSmemBytes = Tile::smem_bytes;
  config.stream = stream;
  cluster = cudaLaunchAttribute{};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = Tile::cluster;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  return config;
}

// Blocks of the kernel the whole GPU holds at once (per device). For
// clusters, whole clusters as the GPCs can place them: a persistent grid of
// SMs / 2 pairs overshoots on a GPU whose GPCs cannot all be paired, and
// the pairs that do not fit start only when others have done all their tiles.
template <class Policy, class Tile>
int resident_blocks() {
  static PerDevice<int> per_device;
  return per_device.get([](int device) {
    int sms = 0;
    EGEMM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int blocks = sms * cuda::resident_blocks_per_sm(kernel_of<Policy, Tile>(), Tile::threads, Tile::smem_bytes);
    if constexpr (Tile::cluster == 1) {
      return blocks;
    } else {
      cudaLaunchAttribute cluster;
      const cudaLaunchConfig_t config = tile_launch_config<Tile>(Tile::cluster, nullptr, cluster);
      int clusters = 0;
      EGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel_of<Policy, Tile>(), &config));
      return std::min(blocks, clusters * Tile::cluster);
    }
  });
}

template <class Policy, class Tile>
void launch_tma_tile(const TmaLaunch& l) {
  const auto kernel = kernel_of<Policy, Tile>();
  EGEMM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Tile::smem_bytes));

  static_assert(split_row_multiple % Tile::bm == 0 && split_row_multiple % Tile::bn == 0, "padding fits the tiles");
  static_assert(split_depth_multiple % Tile::bk == 0, "k padding fits the k-tile");
  const FusedGemmParams p = fused_gemm_params(l.a, l.b, l.g, l.path_word, l.path, Tile::bm, Tile::bn);

  // One-piece policies have no lo: their unused maps repeat hi.
  constexpr int e = Tile::element_bytes;
  const CUtensorMap a_hi = piece_map(l.a.piece[0], l.a, Tile::bm, e);
  const CUtensorMap b_hi = piece_map(l.b.piece[0], l.b, Tile::b_box_rows, e);
  const CUtensorMap a_lo = Tile::pieces > 1 ? piece_map(l.a.piece[1], l.a, Tile::bm, e) : a_hi;
  const CUtensorMap b_lo = Tile::pieces > 1 ? piece_map(l.b.piece[1], l.b, Tile::b_box_rows, e) : b_hi;
  // Persistent: clusters (pairs of m-tiles with Cluster 2) take tiles in turn.
  const long long work = static_cast<long long>((p.tiles_m + Tile::cluster - 1) / Tile::cluster) * p.tiles_n;
  const long long slots = persistent_blocks() ? std::max(1, resident_blocks<Policy, Tile>() / Tile::cluster) : work;
  cudaLaunchAttribute cluster;
  const cudaLaunchConfig_t config = tile_launch_config<Tile>(std::min(work, slots) * Tile::cluster, l.stream, cluster);
  EGEMM_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a_hi, a_lo, b_hi, b_lo, p));
}

// Candidate `Index` of emulated_fp32_tiles as a kernel tile.
template <int Index>
using EmulatedFP32Tile = Sm90Tile<2, emulated_fp32_tiles[Index].bm, emulated_fp32_tiles[Index].bn,
                                  emulated_fp32_tiles[Index].stages, emulated_fp32_tiles[Index].blocks_per_sm,
                                  emulated_fp32_tiles[Index].cluster>;

}  // namespace egemm::cuda::hopper
