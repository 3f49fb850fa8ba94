// One configuration of the Hopper kernel as a type: the model's HopperTile
// (block tile, stages, blocks per SM, cluster) with the sizes every other
// piece derives from it, checked against the model's own formulas.
#pragma once

#include "egemm/model/hopper_tiles.hpp"

namespace egemm::cuda::hopper {

// A configuration of the kernel (model::HopperTile, as types): bm x bn blocks
// of bm / 64 consumer warpgroups (64 x bn each, one m64nBNk16 wgmma
// accumulator per sum) and one producer warpgroup; k-tiles of 64 FP16, one
// 128-byte swizzle row; a ring of `stages` of them; `blocks_per_sm` blocks
// resident per SM. Shared memory and registers come from the model's
// formulas (src/egemm/model/hopper_tiles.hpp), so the model judges exactly
// what runs.
// Cluster 2: two blocks on neighbouring m-tiles of one n-tile share op(B)'s
// boxes; each loads half and multicasts it to both, so L2 serves a quarter
// fewer bytes per block (a stage returns only when both blocks released it).
// ElementBytes: 2 for FP16 pieces (k-tiles of 64 values), 4 for TF32 (32),
// 1 for INT8 digits. RowBytes: a k-tile row, the swizzle span (128, or 64
// for INT8 digits: three pieces of 128-byte rows make a stage of 96 KiB at
// 128 x 128, two of which fill the SM, and a ring of two cannot hide a
// refill; 64-byte rows give four stages of 48 KiB).
template <int Pieces, int BM, int BN, int Stages, int BlocksPerSM = 1, int Cluster = 1, int ElementBytes = 2,
          int RowBytes = 128>
struct Sm90Tile {
  static constexpr model::HopperTile shape{"", BM, BN, Stages, BlocksPerSM, Cluster, RowBytes};
  static constexpr int pieces = Pieces;
  static constexpr int cluster = Cluster;
  static constexpr int element_bytes = ElementBytes;
  static constexpr int row_bytes = RowBytes;
  static constexpr int bm = BM, bn = BN, bk = RowBytes / ElementBytes;  // k values per k-tile row
  static constexpr int stages = Stages, blocks_per_sm = BlocksPerSM;
  static constexpr int consumers = model::consumers(shape);  // warpgroups; consumer c owns rows 64 c .. 64 c + 63
  static constexpr int threads = model::threads(shape);
  static constexpr int a_box_bytes = bm * row_bytes, b_box_bytes = bn * row_bytes;  // per piece and stage
  static constexpr int b_box_rows = bn / cluster;  // the rows of op(B) one block loads (and multicasts)
  static constexpr int stage_bytes = model::stage_bytes(shape, pieces);
  static constexpr int smem_bytes = model::smem_bytes(shape, pieces);
  // The staged epilogue (StagedC): each consumer's buffers after the ring.
  // Not with TF32 pieces: that kernel runs at the 240-register cap, and with
  // both epilogues in it ptxas spilled ~1 KB. Nor with INT8 digits (three
  // int32 sums and the float64 combine: the same register budget).
  static constexpr bool stages_c = ElementBytes <= 2;
  static constexpr int epilogue_buffers = model::epilogue_buffers(shape);
  static constexpr int epilogue_bytes = model::epilogue_bytes(shape);
  static_assert(consumers <= 2, "a named barrier per consumer warpgroup: 1 and 2");
  static constexpr int producer_registers = model::producer_registers(shape);
  static constexpr int consumer_registers = model::consumer_registers(shape);
  static_assert(stage_bytes == pieces * (a_box_bytes + b_box_bytes), "the model's stage is the ring's");
  static_assert(bm % 64 == 0 && (bn == 64 || bn == 128), "consumers own 64 rows; wgmma shapes n64 and n128");
  static_assert(stages >= 2, "a ring needs two stages");
  static_assert(smem_bytes <= 227 * 1024 / blocks_per_sm, "the ring fits the SM's shared memory");
  static_assert(ElementBytes == 1 || ElementBytes == 2 || ElementBytes == 4, "INT8, FP16 or TF32 pieces");
  static_assert(cluster == 1 || cluster == 2, "blocks pair up along m at most");
  static_assert(b_box_rows % 8 == 0, "a multicast half starts on a swizzle atom (8 rows)");
  static_assert(row_bytes == 128 || (row_bytes == 64 && ElementBytes == 1), "128-byte rows; 64 for INT8 digits");
};

}  // namespace egemm::cuda::hopper
