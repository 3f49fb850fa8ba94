// The last, partial wave of a persistent grid, spread over every slot by k
// (stream-K on the tail: Osama, Merrill, Cecka, Garland, PPoPP 2023).
//
// `slots` workers (blocks, or cluster pairs) take `tiles` tiles in turn. With
// tiles = rounds x slots + rest, the last round would leave slots - rest of
// them idle for a whole tile. Here each slot takes `rounds` whole tiles and
// then an equal share of the rest's k-tiles, counted through the rest tiles
// one after another: a share may end inside a tile and the next slot's share
// start there. A rest tile is therefore the sum of partial products of
// consecutive slots (at most two rest tiles per slot, since a share is at
// most one tile's k-tiles), which a fixup pass adds in slot order, the same
// order on every run, before the epilogue.
#pragma once

#include "egemm/config.hpp"

namespace egemm::model {

struct StreamKTail {
  int tiles = 0;    // all tiles (work items of a slot)
  int slots = 1;    // workers resident at once
  int k_tiles = 1;  // per tile
  int whole = 0;    // tiles taken whole: the first `whole` of the order
  int share = 0;    // k-tiles of the rest per slot; 0: no split, every tile whole

  // No split: every tile whole, rounds as they fall.
  static constexpr StreamKTail whole_tiles(int tiles, int slots, int k_tiles) {
    return StreamKTail{tiles, slots, k_tiles, tiles, 0};
  }
  // The rest (tiles % slots, or all tiles when fewer than slots) split by k.
  static constexpr StreamKTail split_rest(int tiles, int slots, int k_tiles) {
    const int rest = tiles % slots;
    if (rest == 0 || k_tiles < 2) return whole_tiles(tiles, slots, k_tiles);
    const long long work = static_cast<long long>(rest) * k_tiles;
    return StreamKTail{tiles, slots, k_tiles, tiles - rest, static_cast<int>((work + slots - 1) / slots)};
  }

  EGEMM_HOST_DEVICE constexpr bool splits() const { return share > 0; }
  EGEMM_HOST_DEVICE constexpr int rest() const { return tiles - whole; }
  EGEMM_HOST_DEVICE constexpr long long rest_k_tiles() const { return static_cast<long long>(rest()) * k_tiles; }
  // Slot s's k-tiles of the rest: [begin(s), end(s)), counted over the rest tiles in order.
  EGEMM_HOST_DEVICE constexpr long long begin(int slot) const {
    const long long b = static_cast<long long>(slot) * share;
    return b < rest_k_tiles() ? b : rest_k_tiles();
  }
  EGEMM_HOST_DEVICE constexpr long long end(int slot) const { return begin(slot + 1); }
  // The slots whose shares hold part of rest tile j: first_slot(j) .. last_slot(j).
  EGEMM_HOST_DEVICE constexpr int first_slot(int j) const {
    return static_cast<int>(static_cast<long long>(j) * k_tiles / share);
  }
  EGEMM_HOST_DEVICE constexpr int last_slot(int j) const {
    return static_cast<int>((static_cast<long long>(j + 1) * k_tiles - 1) / share);
  }
  // Which of slot s's (at most two) partial sums holds rest tile j: 0 if its
  // share starts inside j, 1 if it started in the tile before.
  EGEMM_HOST_DEVICE constexpr int part(int slot, int j) const {
    return begin(slot) >= static_cast<long long>(j) * k_tiles ? 0 : 1;
  }
  // Partial sums a fixup reads: two per slot.
  EGEMM_HOST_DEVICE constexpr int partial_buffers() const { return splits() ? 2 * slots : 0; }
};

// One stretch of a slot's share: rest tile `rest_tile`, k-tiles [k_begin, k_end), into partial sum `part`.
struct StreamKPiece {
  int rest_tile, k_begin, k_end, part;
};

// Walks slot s's share piece by piece: for (auto p = first_piece(t, s); p.k_end > p.k_begin; p = next_piece(t, s, p)).
EGEMM_INLINE constexpr StreamKPiece piece_at(const StreamKTail& t, long long at, long long end, int part) {
  if (at >= end) return StreamKPiece{0, 0, 0, part};
  const int j = static_cast<int>(at / t.k_tiles);
  const int k_begin = static_cast<int>(at - static_cast<long long>(j) * t.k_tiles);
  const long long left = end - at;
  const int k_end = left < t.k_tiles - k_begin ? k_begin + static_cast<int>(left) : t.k_tiles;
  return StreamKPiece{j, k_begin, k_end, part};
}
EGEMM_INLINE constexpr StreamKPiece first_piece(const StreamKTail& t, int slot) {
  return piece_at(t, t.begin(slot), t.end(slot), 0);
}
EGEMM_INLINE constexpr StreamKPiece next_piece(const StreamKTail& t, int slot, const StreamKPiece& p) {
  return piece_at(t, static_cast<long long>(p.rest_tile) * t.k_tiles + p.k_end, t.end(slot), p.part + 1);
}

}  // namespace egemm::model
