// The stream-K tail plan (egemm/model/stream_k_tail.hpp) that the Hopper
// kernel and its fixup both follow: every k-tile of every tile computed once,
// each rest tile's contributors found the same way by the slots that write
// them and by the fixup that adds them, no slot with more than a tile's work.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "egemm/model/stream_k_tail.hpp"

namespace egemm::model {
namespace {

// What each slot computes, walked as the kernel walks it: (tile, k-tile) -> the
// (slot, part) that computed it, failing on a k-tile computed twice.
std::map<std::pair<int, int>, std::pair<int, int>> walk(const StreamKTail& t) {
  std::map<std::pair<int, int>, std::pair<int, int>> by;
  for (int slot = 0; slot < t.slots; ++slot) {
    for (int tile = slot; tile < t.whole; tile += t.slots)
      for (int k = 0; k < t.k_tiles; ++k) by[{tile, k}] = {slot, -1};
    int pieces = 0, k_work = 0;
    for (StreamKPiece p = first_piece(t, slot); p.k_end > p.k_begin; p = next_piece(t, slot, p)) {
      EXPECT_EQ(p.part, pieces) << "slot " << slot;
      ++pieces;
      k_work += p.k_end - p.k_begin;
      for (int k = p.k_begin; k < p.k_end; ++k) {
        const bool fresh = by.emplace(std::make_pair(t.whole + p.rest_tile, k), std::make_pair(slot, p.part)).second;
        EXPECT_TRUE(fresh) << "tile " << t.whole + p.rest_tile << " k-tile " << k << " twice";
      }
    }
    EXPECT_LE(pieces, 2) << "slot " << slot;
    EXPECT_LE(k_work, t.share) << "slot " << slot;
  }
  return by;
}

TEST(StreamKTail, EveryKTileOnceAndTheFixupFindsItsContributors) {
  for (int tiles : {1, 5, 65, 66, 67, 131, 133, 512, 2048, 4097})
    for (int slots : {1, 7, 66, 132})
      for (int k_tiles : {1, 2, 3, 16, 64, 129}) {
        SCOPED_TRACE(testing::Message() << tiles << " tiles, " << slots << " slots, " << k_tiles << " k-tiles");
        const StreamKTail t = StreamKTail::split_rest(tiles, slots, k_tiles);
        const int rest = tiles % slots;
        EXPECT_EQ(t.whole, t.splits() ? tiles - rest : tiles);
        EXPECT_EQ(t.splits(), rest != 0 && k_tiles >= 2);
        const auto by = walk(t);
        ASSERT_EQ(by.size(), static_cast<std::size_t>(tiles) * k_tiles);
        for (int j = 0; j < t.rest(); ++j) {
          // The slots the kernel saw write rest tile j, and the part each wrote it to.
          std::map<int, int> writers;
          for (int k = 0; k < k_tiles; ++k) writers[by.at({t.whole + j, k}).first] = by.at({t.whole + j, k}).second;
          ASSERT_EQ(writers.begin()->first, t.first_slot(j));
          ASSERT_EQ(writers.rbegin()->first, t.last_slot(j));
          ASSERT_EQ(static_cast<int>(writers.size()), t.last_slot(j) - t.first_slot(j) + 1);
          for (const auto& [slot, part] : writers) ASSERT_EQ(part, t.part(slot, j)) << "slot " << slot;
        }
      }
}

TEST(StreamKTail, SharesAreEvenAndTheRoundsWhole) {
  // 8192^3 in 128 x 128 pairs on an H100: 2048 pair tiles, 66 pairs, 128 k-tiles.
  const StreamKTail t = StreamKTail::split_rest(2048, 66, 128);
  EXPECT_EQ(t.whole, 31 * 66);
  EXPECT_EQ(t.rest(), 2);
  EXPECT_EQ(t.share, 4);  // 256 k-tiles over 66 slots: 64 slots take 4, the rest what is left
  EXPECT_EQ(t.end(63) - t.begin(63), 4);
  EXPECT_EQ(t.end(64) - t.begin(64), 0);
  EXPECT_EQ(t.partial_buffers(), 132);
  // Fewer tiles than slots: all of them split, none whole.
  const StreamKTail small = StreamKTail::split_rest(32, 66, 16);
  EXPECT_EQ(small.whole, 0);
  EXPECT_EQ(small.share, 8);
  EXPECT_EQ(small.first_slot(0), 0);
  EXPECT_EQ(small.last_slot(0), 1);
  // A whole number of rounds, or a single k-tile: nothing to split.
  EXPECT_FALSE(StreamKTail::split_rest(132, 66, 64).splits());
  EXPECT_FALSE(StreamKTail::split_rest(133, 66, 1).splits());
  EXPECT_FALSE(StreamKTail::whole_tiles(133, 66, 64).splits());
  EXPECT_EQ(StreamKTail::whole_tiles(133, 66, 64).partial_buffers(), 0);
}

}  // namespace
}  // namespace egemm::model
