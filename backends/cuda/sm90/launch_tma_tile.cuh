// Launches the Hopper kernel for one policy and tile: the pieces' tensor maps,
// a persistent grid (as many blocks as the SMs hold, at most one per tile),
// clusters when the tile asks for them, and, where the model finds it
// faster, the stream-K tail with its fixup launch behind the kernel.
#pragma once

#include <algorithm>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "backends/cuda/sm80/tile_config.hpp"
#include "backends/cuda/sm90/fused_gemm_tma_kernel.cuh"
#include "backends/cuda/sm90/hopper_resources.hpp"
#include "backends/cuda/sm90/tensor_maps.hpp"
#include "backends/cuda/sm90/tile_candidates.hpp"

namespace egemm::cuda::hopper {

template <class Policy, class Tile>
constexpr auto kernel_of() {
  return tma_wgmma_gemm_kernel<Policy, Tile>;
}

// A launch of `blocks` blocks of the tile, in clusters of Tile::cluster, as a
// dependent of the split (dependent_launch.hpp); `attributes` holds what the
// config points to.
template <class Tile>
cudaLaunchConfig_t tile_launch_config(long long blocks, cudaStream_t stream, cudaLaunchAttribute (&attributes)[2]) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(static_cast<unsigned>(blocks));
  config.blockDim = dim3(Tile::threads);
  config.dynamicSmemBytes = Tile::smem_bytes;
  config.stream = stream;
  attributes[0] = cluster_dimension_attribute(Tile::cluster);
  config.attrs = attributes;
  config.numAttrs = 1 + static_cast<unsigned>(dependent_launch_attribute(attributes[1]));
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
      cudaLaunchAttribute attributes[2];
      cudaLaunchConfig_t config = tile_launch_config<Tile>(Tile::cluster, nullptr, attributes);
      config.numAttrs = 1;  // the cluster shape is what the occupancy query needs
      int clusters = 0;
      EGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel_of<Policy, Tile>(), &config));
      return std::min(blocks, clusters * Tile::cluster);
    }
  });
}

// The policy as the model sees it in this tile: pieces, products (an INT8
// one in half an FP16 one's time), sums (with the fold's per-k-tile one) and
// whether the main term folds.
template <class Policy, class Tile>
constexpr model::EmulationShape emulation_shape() {
  using traits = policy_traits<Policy>;
  if constexpr (traits::integer_sums) {
    return {Tile::pieces, traits::products / 2, ConsumerSums<Policy, Tile>::count, false};
  } else {
    using Acc = WarpgroupAccumulators<Policy, Tile>;
    return {Tile::pieces, traits::products, Acc::count + (Acc::folds ? 1 : 0), Acc::folds};
  }
}

// Whether to spread the last partial round by k: the model's verdict, or
// the tuning's sm90_stream_k (never, or whenever there is a partial round), for A/B timing and the tests.
template <class Policy, class Tile>
bool split_tail(const GemmArgs& g) {
  if (const StreamK forced = tuning().sm90_stream_k; forced != StreamK::model) return forced == StreamK::always;
  return model::predict(hopper_resources(), Tile::shape, emulation_shape<Policy, Tile>(), g.m, g.n, g.k,
                        model::Tail::split_when_faster)
      .splits_tail;
}

// The staged epilogue (C through shared memory and TMA stores) unless
// the tuning's sm90_c_through_tma is false, for A/B timing and the tests.
inline bool c_through_tma_requested() { return tuning().sm90_c_through_tma; }

template <class Policy, class Tile>
void launch_tma_tile(const FusedLaunch& l) {
  static_assert(split_row_multiple % Tile::bm == 0 && split_row_multiple % Tile::bn == 0, "padding fits the tiles");
  static_assert(split_depth_multiple_for(policy_traits<Policy>::split) % Tile::bk == 0, "k padding fits the k-tile");
  FusedGemmParams p = fused_gemm_params(l.a, l.b, l.g, l.path_word, l.path, Tile::bm, Tile::bn);
  if (const int group = tuning().sm90_group; group > 0) p.raster_group = group;  // A/B timing

  // Persistent: slots (clusters of Tile::cluster blocks) take tiles (pairs of m-tiles) in turn.
  const int work = (p.tiles_m + Tile::cluster - 1) / Tile::cluster * p.tiles_n;
  int slots = std::min(work, persistent_blocks() ? std::max(1, resident_blocks<Policy, Tile>() / Tile::cluster) : work);
  // The tuning's sm90_slots = n: at most n slots, the other SMs left free (for experiments beside other work).
  if (const int cap = tuning().sm90_slots; cap > 0) slots = std::min(cap, slots);
  const int k_tiles = static_cast<int>(p.k_pad / Tile::bk);
  StreamKArgs sk{split_tail<Policy, Tile>(l.g) ? model::StreamKTail::split_rest(work, slots, k_tiles)
                                               : model::StreamKTail::whole_tiles(work, slots, k_tiles),
                 nullptr};
  if (sk.tail.splits()) {
    constexpr std::size_t words_per_buffer =
        std::size_t{Tile::cluster} * Tile::consumers * partial_words<Policy, Tile>;
    sk.partials = l.scratch.take<std::uint32_t>(sk.tail.partial_buffers() * words_per_buffer);
  }
  if (l.scratch.measures_only()) return;

  const auto kernel = kernel_of<Policy, Tile>();
  static PerDevice<bool> opted_in;
  allow_dynamic_smem(opted_in, kernel, Tile::smem_bytes);
  // A policy's unused maps (no lo, no lowest) repeat hi.
  constexpr int e = Tile::element_bytes;
  const auto map = [&](const SplitOperand& op, int piece, int box_rows) {
    return piece_map(op.piece[piece < Tile::pieces ? piece : 0], op, box_rows, e, Tile::row_bytes);
  };
  const CUtensorMap a_hi = map(l.a, 0, Tile::bm), a_lo = map(l.a, 1, Tile::bm), a_lowest = map(l.a, 2, Tile::bm);
  const CUtensorMap b_hi = map(l.b, 0, Tile::b_box_rows), b_lo = map(l.b, 1, Tile::b_box_rows),
                    b_lowest = map(l.b, 2, Tile::b_box_rows);
  p.c_through_tma = Tile::stages_c && c_through_tma_requested() && c_map_possible(l.g);
  const CUtensorMap c_out = p.c_through_tma ? c_map(l.g, model::hopper_epilogue_cols) : a_hi;  // unused otherwise
  cudaLaunchAttribute attributes[2];
  const cudaLaunchConfig_t config =
      tile_launch_config<Tile>(static_cast<long long>(slots) * Tile::cluster, l.stream, attributes);
  EGEMM_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, a_hi, a_lo, a_lowest, b_hi, b_lo, b_lowest, c_out, p, sk));
  if (sk.tail.splits()) {
    constexpr int blocks_per_tile = Tile::cluster * Tile::consumers * Tile::bn / 8;  // one per consumer and n8 block
    launch_dependent(stream_k_fixup_kernel<Policy, Tile>, dim3(sk.tail.rest() * blocks_per_tile), 128, 0, l.stream,
                     p, sk);
  }
}

// Candidate `Index` of emulated_fp32_tiles as a kernel tile.
template <int Index>
using EmulatedFP32Tile = Sm90Tile<2, emulated_fp32_tiles[Index].bm, emulated_fp32_tiles[Index].bn,
                                  emulated_fp32_tiles[Index].stages, emulated_fp32_tiles[Index].blocks_per_sm,
                                  emulated_fp32_tiles[Index].cluster>;

}  // namespace egemm::cuda::hopper
