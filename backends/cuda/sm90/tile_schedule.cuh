// Which C tiles (and which k-tiles of them) a persistent block takes: whole
// tiles in the grouped order, then its share of the stream-K tail. The
// producer, the consumers and the stream-K fixup all place tiles through it.
#pragma once

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/sm80/fused_gemm_kernel.cuh"  // TileCoord, tile_order
#include "egemm/model/stream_k_tail.hpp"

namespace egemm::cuda::hopper {

// The block's C tile for tile `t` of the grouped order: a cluster's order
// runs over pairs of m-tiles, and block `rank` of the pair takes the
// rank-th. The kernel's schedule and the stream-K fixup both place tiles so.
template <class Tile>
__device__ __forceinline__ TileCoord block_tile(const FusedGemmParams& p, int t, int rank) {
  TileCoord c = tile_order(t, (p.tiles_m + Tile::cluster - 1) / Tile::cluster, p.tiles_n, p.raster_group);
  c.m = c.m * Tile::cluster + rank;
  return c;
}

// Persistent scheduling: slot (block, or cluster) b takes tiles b, b + slots,
// b + 2 slots, ... of the grouped order up to tail.whole, then its share of
// the rest's k-tiles (stream-K); a cluster takes pairs of m-tiles.
template <class Tile>
struct TileSchedule {
  const FusedGemmParams& p;
  int slot, slots, rank;
  model::StreamKTail tail;
  __device__ __forceinline__ TileSchedule(const FusedGemmParams& params, const model::StreamKTail& t, int cluster_rank)
      : p(params),
        slot(static_cast<int>(blockIdx.x) / Tile::cluster),
        slots(static_cast<int>(gridDim.x) / Tile::cluster),
        rank(cluster_rank),
        tail(t) {}
  __device__ __forceinline__ TileCoord operator[](int t) const { return block_tile<Tile>(p, t, rank); }
  // The slot's work as stretches of k-tiles, in order: whole tiles (part -1,
  // their epilogue follows), then the pieces of its tail share (part 0 or 1:
  // which of the slot's partial sums it fills). k_begin == k_end: no more.
  struct Stretch {
    int order, k_begin, k_end, part;  // order: the tile's place in the grouped order
  };
  __device__ __forceinline__ Stretch first(int k_tiles) const { return whole_or_tail(slot, k_tiles); }
  __device__ __forceinline__ Stretch next(const Stretch& s, int k_tiles) const {
    if (s.part < 0) return whole_or_tail(s.order + slots, k_tiles);
    const model::StreamKPiece done{s.order - tail.whole, s.k_begin, s.k_end, s.part};
    return of_piece(model::next_piece(tail, slot, done));
  }

 private:
  __device__ __forceinline__ Stretch whole_or_tail(int t, int k_tiles) const {
    if (t < tail.whole) return {t, 0, k_tiles, -1};
    if (!tail.splits()) return {0, 0, 0, -1};
    return of_piece(model::first_piece(tail, slot));
  }
  __device__ __forceinline__ Stretch of_piece(const model::StreamKPiece& p) const {
    return {tail.whole + p.rest_tile, p.k_begin, p.k_end, p.part};
  }
};

}  // namespace egemm::cuda::hopper
