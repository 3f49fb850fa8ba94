// The producer: one thread that streams every k-tile's piece boxes into the
// stage ring by TMA (multicasting op(B) to a cluster's pair), running ahead
// across tiles as far as the ring allows.
#pragma once

#include <cuda.h>

#include "backends/cuda/sm90/mbarrier.hpp"
#include "backends/cuda/sm90/stage_ring.cuh"
#include "backends/cuda/sm90/tile_schedule.cuh"
#include "backends/cuda/sm90/tma.hpp"
#include "backends/cuda/split/split_operand.hpp"  // max_pieces

namespace egemm::cuda::hopper {

// The tensor maps: piece p of op(A) (rows of the block tile m) and of op(B)^T.
struct PieceMaps {
  const CUtensorMap* a[max_pieces];
  const CUtensorMap* b[max_pieces];
};

// One thread: for each of the block's stretches (whole tiles, then its tail
// share) and each k-tile, waits for a free stage, announces its bytes, issues
// the boxes. The ring runs on across tiles, so the next tile's first k-tiles
// load during this one's epilogue.
// In a cluster, the stage is free only once both blocks' consumers released it
// (the peer's multicast writes here too); this block's share of op(B) is the
// rank-th b_box_rows rows, sent to both blocks.
template <class Tile>
__device__ __forceinline__ void producer(const StageRing<Tile>& ring, const PieceMaps& maps,
                                         const TileSchedule<Tile>& schedule, int k_tiles) {
  RingCursor at;
  for (auto s = schedule.first(k_tiles); s.k_begin < s.k_end; s = schedule.next(s, k_tiles)) {
    const TileCoord tile = schedule[s.order];
    const int row_a = tile.m * Tile::bm, row_b = tile.n * Tile::bn;
    for (int kt = s.k_begin; kt < s.k_end; ++kt) {
      mbarrier_wait(ring.empty(at.stage), at.phase ^ 1);  // a fresh barrier counts as released
      mbarrier_arrive_expect_tx(ring.full(at.stage), Tile::stage_bytes);
#pragma unroll
      for (int piece = 0; piece < Tile::pieces; ++piece) {
        tma_load_2d(ring.a(at.stage, piece), maps.a[piece], ring.full(at.stage), kt * Tile::bk, row_a);
        if constexpr (Tile::cluster == 1) {
          tma_load_2d(ring.b(at.stage, piece), maps.b[piece], ring.full(at.stage), kt * Tile::bk, row_b);
        } else {
          const int half = schedule.rank * Tile::b_box_rows;
          tma_load_2d_multicast(ring.b(at.stage, piece) + half * Tile::row_bytes, maps.b[piece], ring.full(at.stage),
                                kt * Tile::bk, row_b + half, static_cast<std::uint16_t>((1u << Tile::cluster) - 1));
        }
      }
      at.advance<Tile::stages>();
    }
  }
}

}  // namespace egemm::cuda::hopper
