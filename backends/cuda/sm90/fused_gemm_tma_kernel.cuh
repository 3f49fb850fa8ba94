// The fused gemm on Hopper (sm_90a), from named pieces:
//   Sm90Tile            : block tile, k-tile, warpgroups, stage ring, register split
//   StageRing           : where stage s's pieces and its two mbarriers live in shared memory
//   producer            : one thread of warpgroup 0 streams k-tiles in by TMA
//   WarpgroupAccumulators: a consumer warpgroup's 64 x bn part of C, every product
//                         term as wgmmas from shared memory, the per-k-tile fold
//   epilogue            : combine accumulators, undo the scaling, alpha/beta
//                         (strip_epilogue.cuh, shared with the mma.sync kernel),
//                         staged 32 columns at a time in shared memory and
//                         stored by TMA (StagedC), or written from registers
//   stream-K tail       : the last partial wave's tiles spread by k over every
//                         slot, partial sums to global memory, added by
//                         stream_k_fixup_kernel (egemm/model/stream_k_tail.hpp)
// The same policy traits as the mma.sync kernel (fused_gemm_kernel.cuh) decide
// pieces, terms, accumulators and the fold; FP16 or TF32 pieces (the staged
// C epilogue with FP16 pieces only).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <utility>

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/fold_length.hpp"
#include "backends/cuda/fused_gemm.hpp"
#include "backends/cuda/fused_gemm_kernel.cuh"  // tile_order, for_each_term
#include "backends/cuda/sm90/mbarrier.hpp"
#include "backends/cuda/sm90/tma.hpp"
#include "backends/cuda/sm90/wgmma.hpp"
#include "backends/cuda/strip_epilogue.cuh"
#include "egemm/model/hopper_tiles.hpp"
#include "egemm/model/stream_k_tail.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/policy.hpp"

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
// ElementBytes: 2 for FP16 pieces (k-tiles of 64 values), 4 for TF32 (32).
template <int Pieces, int BM, int BN, int Stages, int BlocksPerSM = 1, int Cluster = 1, int ElementBytes = 2>
struct Sm90Tile {
  static constexpr model::HopperTile shape{"", BM, BN, Stages, BlocksPerSM, Cluster};
  static constexpr int pieces = Pieces;
  static constexpr int cluster = Cluster;
  static constexpr int element_bytes = ElementBytes;
  static constexpr int bm = BM, bn = BN, bk = 128 / ElementBytes;  // k values per k-tile row of 128 bytes
  static constexpr int stages = Stages, blocks_per_sm = BlocksPerSM;
  static constexpr int consumers = model::consumers(shape);  // warpgroups; consumer c owns rows 64 c .. 64 c + 63
  static constexpr int threads = model::threads(shape);
  static constexpr int a_box_bytes = bm * 128, b_box_bytes = bn * 128;  // per piece and stage
  static constexpr int b_box_rows = bn / cluster;  // the rows of op(B) one block loads (and multicasts)
  static constexpr int stage_bytes = model::stage_bytes(shape, pieces);
  static constexpr int smem_bytes = model::smem_bytes(shape, pieces);
  // The staged epilogue (StagedC): each consumer's buffers after the ring.
  // Not with TF32 pieces: that kernel runs at the 240-register cap, and with
  // both epilogues in it ptxas spilled ~1 KB.
  static constexpr bool stages_c = ElementBytes == 2;
  static constexpr int epilogue_buffers = model::epilogue_buffers(shape);
  static constexpr int epilogue_bytes = model::epilogue_bytes(shape);
  static_assert(consumers <= 2, "a named barrier per consumer warpgroup: 1 and 2");
  static constexpr int producer_registers = model::producer_registers(shape);
  static constexpr int consumer_registers = model::consumer_registers(shape);
  static_assert(stage_bytes == pieces * (a_box_bytes + b_box_bytes), "the model's stage is the ring's");
  static_assert(bm % 64 == 0 && (bn == 64 || bn == 128), "consumers own 64 rows; wgmma shapes n64 and n128");
  static_assert(stages >= 2, "a ring needs two stages");
  static_assert(smem_bytes <= 227 * 1024 / blocks_per_sm, "the ring fits the SM's shared memory");
  static_assert(ElementBytes == 2 || ElementBytes == 4, "FP16 or TF32 pieces");
  static_assert(cluster == 1 || cluster == 2, "blocks pair up along m at most");
  static_assert(b_box_rows % 8 == 0, "a multicast half starts on a 1024-byte swizzle atom");
};

// The position in the ring: stage and the parity of its current phase.
struct RingCursor {
  int stage = 0;
  std::uint32_t phase = 0;
  template <int Stages>
  __device__ __forceinline__ void advance() {
    if (++stage == Stages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

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

// Where the stream-K tail's partial sums go: buffer 2 slot + part, within it
// each block of the cluster, consumer warpgroup and sum, [entry / 4][thread]
// float4s so that a warpgroup's stores and loads are whole 512-byte lines.
struct StreamKArgs {
  model::StreamKTail tail;
  float* partials;
};

// Stage s: A piece boxes, then B piece boxes, each 1024-byte aligned (the
// 128B swizzle's atom); then full[stages] and empty[stages] barriers.
template <class Tile>
struct StageRing {
  unsigned char* base;
  __device__ __forceinline__ unsigned char* a(int stage, int piece) const {
    return base + stage * Tile::stage_bytes + piece * Tile::a_box_bytes;
  }
  __device__ __forceinline__ unsigned char* b(int stage, int piece) const {
    return base + stage * Tile::stage_bytes + Tile::pieces * Tile::a_box_bytes + piece * Tile::b_box_bytes;
  }
  // Buffer `buffer` of consumer `consumer`'s staged epilogue (1 KiB-aligned, as the swizzle needs).
  __device__ __forceinline__ unsigned char* epilogue(int consumer, int buffer) const {
    return base + Tile::stages * Tile::stage_bytes +
           (consumer * Tile::epilogue_buffers + buffer) * model::hopper_epilogue_buffer_bytes;
  }
  __device__ __forceinline__ std::uint64_t* full(int stage) const {
    return reinterpret_cast<std::uint64_t*>(base + Tile::stages * Tile::stage_bytes + Tile::epilogue_bytes) + stage;
  }
  __device__ __forceinline__ std::uint64_t* empty(int stage) const { return full(Tile::stages) + stage; }
};

// The four tensor maps: piece p of op(A) (rows of the block tile m) and of op(B)^T.
struct PieceMaps {
  const CUtensorMap* a[2];
  const CUtensorMap* b[2];
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
          tma_load_2d_multicast(ring.b(at.stage, piece) + half * 128, maps.b[piece], ring.full(at.stage),
                                kt * Tile::bk, row_b + half, static_cast<std::uint16_t>((1u << Tile::cluster) - 1));
        }
      }
      at.advance<Tile::stages>();
    }
  }
}

template <class Policy, class Tile>
struct WarpgroupAccumulators {
  using traits = policy_traits<Policy>;
  static constexpr int count = traits::products > 1 && traits::terms[traits::products - 1].accumulator == 1 ? 2 : 1;
  static constexpr bool folds = traits::fold_main_each_k_step;
  static constexpr int k_steps = 4;          // 32-byte k slices per 128-byte k-tile row: wgmmas per k-tile and term
  static constexpr int size = Tile::bn / 2;  // floats per thread of a 64 x bn accumulator
  // The fold spans wgmma_fold_k values of k: one FP16 k-tile, two TF32 ones.
  static constexpr int k_tiles_per_fold = wgmma_fold_k / Tile::bk;
  static_assert(!folds || k_tiles_per_fold * Tile::bk == wgmma_fold_k, "a fold spans whole k-tiles");
  float acc[count][size];
  float step[folds ? size : 1];  // the folded term's sum since the last fold

  // Whether term i is the first to write its accumulator.
  static constexpr bool first_of_accumulator(int i) {
    for (int j = 0; j < i; ++j)
      if (traits::terms[j].accumulator == traits::terms[i].accumulator) return false;
    return true;
  }

  // The wgmma sums start from their first k-tile (accumulate = 0); only the
  // folded main accumulator, never a wgmma's, is zeroed here.
  __device__ __forceinline__ void zero_main() {
    if constexpr (folds) {
#pragma unroll
      for (int v = 0; v < size; ++v) acc[0][v] = 0.0f;
    }
  }

  __device__ __forceinline__ void fence_all() {
#pragma unroll
    for (int s = 0; s < count; ++s) fence_registers(acc[s]);
    fence_registers(step);
  }

  // One term over the k-tile: k_steps wgmmas chained in the tensor core; the
  // first adds to d's old value only if `accumulate`.
  static __device__ __forceinline__ void term_k_tile(float (&d)[size], std::uint32_t a, std::uint32_t b,
                                                     int accumulate) {
    const std::uint64_t da = smem_descriptor_sw128(a), db = smem_descriptor_sw128(b);
    wgmma_k32_bytes<Tile::element_bytes>(d, da, db, accumulate);
#pragma unroll
    for (int s = 1; s < k_steps; ++s)  // slice s: 32 s bytes on, 2 s in the descriptor's 16-byte units
      wgmma_k32_bytes<Tile::element_bytes>(d, da + 2 * s, db + 2 * s, 1);
  }

  // Every term of k-tile kt (a, b: this warpgroup's rows of each piece).
  // Folded policy: the main term's wgmmas go into `step` as their own group,
  // the corrections into a second; waiting for all but the last group lets
  // the RN add of step into the main accumulator (on the fold's last k-tile)
  // run while the corrections still occupy the tensor core. Returns with at
  // most one group in flight: the previous k-tile's wgmmas have all completed.
  __device__ __forceinline__ void k_tile(const std::uint32_t (&a)[2], const std::uint32_t (&b)[2], int kt, int k_tiles) {
    const bool first = kt == 0;
    fence_all();
    wgmma_fence();
    if constexpr (folds) {
      constexpr ProductTerm main_term = traits::terms[0];
      const bool fresh = kt % k_tiles_per_fold == 0;
      const bool fold = (kt + 1) % k_tiles_per_fold == 0 || kt + 1 == k_tiles;
      term_k_tile(step, a[static_cast<int>(main_term.a)], b[static_cast<int>(main_term.b)], fresh ? 0 : 1);
      wgmma_commit();
      for_each_term(
          [&](auto t) {
            constexpr int i = decltype(t)::value;
            if constexpr (i > 0) {
              constexpr ProductTerm term = traits::terms[i];
              static_assert(term.accumulator == 1, "the main accumulator is folded into while the others run");
              // The first correction term of k-tile 0 starts the correction sum.
              term_k_tile(acc[1], a[static_cast<int>(term.a)], b[static_cast<int>(term.b)], !(first && i == 1));
            }
          },
          std::make_integer_sequence<int, traits::products>{});
      wgmma_commit();
      wgmma_wait<1>();
      if (fold) {
        fence_registers(step);
        fence_registers(acc[0]);
#pragma unroll
        for (int v = 0; v < size; ++v) acc[0][v] = __fadd_rn(acc[0][v], step[v]);
      }
    } else {
      for_each_term(
          [&](auto t) {
            constexpr int i = decltype(t)::value;
            constexpr ProductTerm term = traits::terms[i];
            constexpr bool starts = first_of_accumulator(i);
            term_k_tile(acc[term.accumulator], a[static_cast<int>(term.a)], b[static_cast<int>(term.b)],
                        !(first && starts));
          },
          std::make_integer_sequence<int, traits::products>{});
      wgmma_commit();
      wgmma_wait<1>();
    }
    fence_all();
  }
};

// A warp's 16 rows of the warpgroup's accumulators as the shared epilogue
// sees them (strip_epilogue.cuh). wgmma's layout: warp w, lane l holds rows
// 16 w + l/4 (+8) and, per n8 block j, registers 4 j + {0, 1} (row r) and
// 4 j + {2, 3} (row r + 8): mma.sync's m16n8 layout, once per n8 block.
template <class Policy, class Tile>
struct WgmmaStrip {
  using Acc = WarpgroupAccumulators<Policy, Tile>;
  static constexpr int n8_blocks = Acc::size / 4;
  const Acc& acc;
  __device__ __forceinline__ float main(int j, int h, int w) const { return acc.acc[0][4 * j + 2 * h + w]; }
  __device__ __forceinline__ float correction(int j, int h, int w) const {
    return Acc::count > 1 ? acc.acc[Acc::count - 1][4 * j + 2 * h + w] : 0.0f;
  }
};

// Brings the tile's row and column flags and exponents into L1 while the
// tile's k-loop runs, so that the epilogue's loads hit L1 instead of waiting
// on L2 one after another. Every thread prefetches (clamped indices, no
// branch): the warps stay converged for the wgmmas that follow.
template <class Policy, class Tile>
__device__ __forceinline__ void prefetch_epilogue_data(const FusedGemmParams& p, index_t row0, index_t col0,
                                                       int thread) {
  using traits = policy_traits<Policy>;
  const index_t col = min(col0 + thread % Tile::bn, p.n - 1), row = min(row0 + thread % 64, p.m - 1);
  prefetch_l1(p.b_nonfinite + col);
  prefetch_l1(p.a_nonfinite + row);
  if constexpr (traits::scales_rows_and_columns) {
    prefetch_l1(p.b_exponent + col);
    prefetch_l1(p.a_exponent + row);
  }
}

// The warpgroup's 64 x bn entries of C (rows row0.., columns col0..), a
// strip of 16 rows per warp, into `sink` (C itself, or StagedC's buffers).
template <class Policy, class Tile, class Sink = StoreToC>
__device__ __forceinline__ void epilogue(const WarpgroupAccumulators<Policy, Tile>& acc, const FusedGemmParams& p,
                                         index_t row0, index_t col0, int thread, const Sink& sink = Sink{}) {
  write_strip<Policy>(WgmmaStrip<Policy, Tile>{acc}, p, row0 + thread / 32 * 16, col0, thread % 32, sink);
}

// Consumer warpgroup c's own barrier (named barrier 1 + c).
__device__ __forceinline__ void consumer_sync(int consumer) {
  if (consumer == 0)
    warpgroup_sync<1>();
  else
    warpgroup_sync<2>();
}

// The staged epilogue's sink (strip_epilogue.cuh): a consumer warpgroup's
// 64 x bn part of C goes through its buffers 32 columns (one batch of the
// strip's walk) at a time, each buffer two TMA boxes of 32 rows x 32 columns
// of c_map. A column of a box is one 128-byte line whose 16-byte chunks are
// swizzled by the line (chunk ^ column % 8), so each store of a warp (8 rows
// x 4 columns) hits 32 different banks. Lane l of warp w holds, of batch b's
// n8 block jb, the entry in box w / 2 at row r = (w % 2) 16 + 8 h + l / 4 and
// column 8 jb + 2 (l % 4) + w', at
//   column 128 + ((r / 4) ^ (column % 8)) 16 + (r % 4) 4,
// where (r / 4) ^ (column % 8) = chunk ^ (2 h + w') with the lane's own
// chunk = ((w % 2) 4 + l / 16) ^ 2 (l % 4) (the terms in h and w' occupy
// bits the others leave zero).
// Entries the kernel must not change (left to the special-value pass) carry
// C's old value when beta != 0; when beta == 0 that pass does not read C,
// so any value will do. After a batch: the warpgroup's entries are visible
// to the TMA unit, then one thread stores the two boxes; with two buffers it
// first waits until the store before has read the other buffer (the next
// batch's), with one until this store has read its own.
template <class Tile>
struct StagedC {
  static_assert(strip_batch * 8 == model::hopper_epilogue_cols, "a batch of the strip's walk fills one buffer");
  StageRing<Tile> ring;
  const CUtensorMap* map;
  int consumer, thread, row0, col0;  // row0, col0: the warpgroup's first entry in C
  std::uint32_t lane_base, chunk;    // this lane's entry (jb = h = w' = 0) in buffer 0 without its chunk; its chunk

  __device__ __forceinline__ StagedC(const StageRing<Tile>& r, const CUtensorMap* c_map, int consumer_, int thread_,
                                     index_t row, index_t col)
      : ring(r), map(c_map), consumer(consumer_), thread(thread_), row0(static_cast<int>(row)),
        col0(static_cast<int>(col)) {
    const int warp = thread / 32, lane = thread % 32, column = 2 * (lane % 4);
    lane_base = smem_u32(ring.epilogue(consumer, 0) + (warp / 2) * model::hopper_epilogue_cols * 128 + column * 128 +
                         lane / 4 % 4 * 4);
    chunk = static_cast<std::uint32_t>(((warp % 2) * 4 + lane / 16) ^ column);
  }
  template <bool ReadsC>
  __device__ __forceinline__ void put(const FusedGemmParams& p, float* c, float v, bool written, bool inside, int j,
                                      int h, int w) const {
    float out;
    if constexpr (ReadsC) {
      const float old = inside ? *c : 0.0f;
      out = written ? alpha_beta<true>(v, p.alpha, p.beta, &old) : old;
    } else {
      out = alpha_beta<false>(v, p.alpha, p.beta, c);
    }
    const int buffer = j / strip_batch % Tile::epilogue_buffers, jb = j % strip_batch;
    const std::uint32_t at = lane_base + buffer * model::hopper_epilogue_buffer_bytes + jb * 1024 + w * 128 +
                             ((chunk ^ (2 * h + w)) << 4);
    asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(at), "f"(out) : "memory");
  }
  __device__ __forceinline__ void end_batch(int batch) const {
    unsigned char* buffer = ring.epilogue(consumer, batch % Tile::epilogue_buffers);
    fence_proxy_async_shared();  // this thread's entries, visible to the TMA unit
    if (Tile::epilogue_buffers > 1 && thread == 0) bulk_wait_read<0>();  // the other buffer is free again
    consumer_sync(consumer);
    if (thread == 0) {
      const int col = col0 + batch * model::hopper_epilogue_cols;
      tma_store_2d(map, buffer, row0, col);
      tma_store_2d(map, buffer + model::hopper_epilogue_cols * 128, row0 + 32, col);
      bulk_commit();
      if (Tile::epilogue_buffers == 1) bulk_wait_read<0>();
    }
    if (Tile::epilogue_buffers == 1) consumer_sync(consumer);
  }
};

// Partial-sum buffer `buffer` of one consumer warpgroup of block `rank` (layout: StreamKArgs).
template <class Policy, class Tile>
__device__ __forceinline__ float4* partial_sums(const StreamKArgs& sk, int buffer, int rank, int consumer) {
  constexpr int floats = WarpgroupAccumulators<Policy, Tile>::count * Tile::bn / 2 * 128;  // one warpgroup's
  const std::size_t at = ((static_cast<std::size_t>(buffer) * Tile::cluster + rank) * Tile::consumers + consumer);
  return reinterpret_cast<float4*>(sk.partials + at * floats);
}

// A tail stretch's sums, unscaled and uncombined, into that buffer.
template <class Policy, class Tile>
__device__ __forceinline__ void store_partial(const WarpgroupAccumulators<Policy, Tile>& acc, float4* to, int thread) {
  using Acc = WarpgroupAccumulators<Policy, Tile>;
#pragma unroll
  for (int s = 0; s < Acc::count; ++s)
#pragma unroll
    for (int v = 0; v < Acc::size; v += 4)
      to[(s * Acc::size + v) / 4 * 128 + thread] =
          make_float4(acc.acc[s][v], acc.acc[s][v + 1], acc.acc[s][v + 2], acc.acc[s][v + 3]);
}

// Hands a stage back to the producer(s): one arrival per consumer warp, on
// every block of the cluster whose producer writes into it.
template <class Tile>
__device__ __forceinline__ void release(const StageRing<Tile>& ring, int stage, int thread) {
  if (thread % 32 != 0) return;
  if constexpr (Tile::cluster == 1) {
    mbarrier_arrive(ring.empty(stage));
  } else {
#pragma unroll
    for (int cta = 0; cta < Tile::cluster; ++cta) mbarrier_arrive_cluster(ring.empty(stage), cta);
  }
}

template <class Policy, class Tile>
__global__ void __launch_bounds__(Tile::threads, Tile::blocks_per_sm)
    tma_wgmma_gemm_kernel(const __grid_constant__ CUtensorMap a_hi, const __grid_constant__ CUtensorMap a_lo,
                           const __grid_constant__ CUtensorMap b_hi, const __grid_constant__ CUtensorMap b_lo,
                           const __grid_constant__ CUtensorMap c_map, const FusedGemmParams p, const StreamKArgs sk) {
  // Only the sm_90a pass has wgmma/setmaxnreg; the sm_80 pass compiles an
  // empty body that the host never launches (fused_gemm_tma.cu checks the
  // binary's version first).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  wait_for_previous_kernel();  // the split's pieces, the path word
  allow_next_kernel();         // the next kernel's blocks take SMs as this one's leave
  if (!path_selected(p.path_word, p.path)) return;  // EmulatedFP32 chose another path on the device
  extern __shared__ unsigned char smem_raw[];
  const StageRing<Tile> ring{reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) &
                                                              ~static_cast<std::uintptr_t>(1023))};
  const int warpgroup = threadIdx.x / 128, thread = threadIdx.x % 128;
  // A cluster takes pairs of m-tiles (with an odd count the last pair's
  // second block reads zeros past op(A) and writes nothing).
  const TileSchedule<Tile> schedule(p, sk.tail, Tile::cluster > 1 ? static_cast<int>(cluster_cta_rank()) : 0);
  const int k_tiles = static_cast<int>(p.k_pad / Tile::bk);
  const bool staged_c = Tile::stages_c && p.c_through_tma;  // C through StagedC, else from registers

  if (threadIdx.x == 0) {
    for (int s = 0; s < Tile::stages; ++s) {
      mbarrier_init(ring.full(s), 1);                    // the producer's arrive_expect_tx
      mbarrier_init(ring.empty(s), 4 * Tile::consumers * Tile::cluster);  // per consumer warp of the cluster
    }
    mbarrier_init_fence();
  }
  const PieceMaps maps{{&a_hi, &a_lo}, {&b_hi, &b_lo}};
  if (threadIdx.x == 32) {
    for (int piece = 0; piece < Tile::pieces; ++piece) {
      tma_prefetch_descriptor(maps.a[piece]);
      tma_prefetch_descriptor(maps.b[piece]);
    }
    if (staged_c) tma_prefetch_descriptor(&c_map);
  }
  if constexpr (Tile::cluster > 1)
    cluster_sync();  // the peer's barriers are initialised before any multicast or remote arrival
  else
    __syncthreads();

  if (warpgroup == 0) {
    setmaxnreg_dec<Tile::producer_registers>();
    if (threadIdx.x == 0) producer(ring, maps, schedule, k_tiles);
    if constexpr (Tile::cluster > 1) {
      __syncwarp();
      cluster_sync();  // matches the consumers' below
    }
    return;
  }
  setmaxnreg_inc<Tile::consumer_registers>();
  const int consumer = warpgroup - 1;
  WarpgroupAccumulators<Policy, Tile> acc;
  RingCursor at;
  for (auto s = schedule.first(k_tiles); s.k_begin < s.k_end; s = schedule.next(s, k_tiles)) {
    acc.zero_main();
    const TileCoord tile = schedule[s.order];
    const index_t row0 = static_cast<index_t>(tile.m) * Tile::bm + consumer * 64;
    const index_t col0 = static_cast<index_t>(tile.n) * Tile::bn;
    if (s.part < 0) prefetch_epilogue_data<Policy, Tile>(p, row0, col0, thread);
    int previous = 0;
    for (int kt = s.k_begin; kt < s.k_end; ++kt) {
      mbarrier_wait(ring.full(at.stage), at.phase);
      std::uint32_t a[2], b[2];
#pragma unroll
      for (int piece = 0; piece < 2; ++piece) {
        const int q = piece < Tile::pieces ? piece : 0;
        a[piece] = smem_u32(ring.a(at.stage, q)) + consumer * 64 * 128;  // this warpgroup's 64 rows
        b[piece] = smem_u32(ring.b(at.stage, q));
      }
      acc.k_tile(a, b, kt - s.k_begin, s.k_end - s.k_begin);
      // k-tile kt - 1's wgmmas have completed: its stage goes back to the producer.
      if (kt > s.k_begin) release(ring, previous, thread);
      previous = at.stage;
      at.advance<Tile::stages>();
    }
    wgmma_wait<0>();
    acc.fence_all();
    release(ring, previous, thread);  // the producer may load the next tile's k-tiles meanwhile
    if (s.part < 0 && staged_c)
      epilogue<Policy, Tile>(acc, p, row0, col0, thread, StagedC<Tile>(ring, &c_map, consumer, thread, row0, col0));
    else if (s.part < 0)
      epilogue<Policy, Tile>(acc, p, row0, col0, thread);
    else
      store_partial(acc, partial_sums<Policy, Tile>(sk, 2 * schedule.slot + s.part, schedule.rank, consumer), thread);
  }
  if (staged_c && thread == 0) bulk_wait<0>();  // C's last boxes are written out
  if constexpr (Tile::cluster > 1) cluster_sync();  // the peer's last arrivals on our barriers are in
#elif defined(__CUDA_ARCH__)
  __trap();  // code without sm_90a's features: the host's check (loaded_code.hpp) never launches it
#endif
}

// The stream-K tail's tiles, one thread per float4 of a consumer thread's
// sums (four entries: rows r, r + 8 and columns c, c + 1 of one n8 block), so
// that the contributors' loads of many entries are in flight at once. The
// slots' partial sums are added in slot order, the same on every run; each
// entry then goes through the epilogue's arithmetic (combine_accumulators,
// alpha_beta) with its row's and column's flags and exponents.
template <class Policy, class Tile>
__global__ void __launch_bounds__(128) stream_k_fixup_kernel(const FusedGemmParams p, const StreamKArgs sk) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!path_selected(p.path_word, p.path)) return;
  using traits = policy_traits<Policy>;
  using Acc = WarpgroupAccumulators<Policy, Tile>;
  constexpr int quads = Acc::size / 4;  // float4s per consumer thread and sum
  const int thread = threadIdx.x;
  const int quad = blockIdx.x % quads;  // the n8 block
  const int consumer = blockIdx.x / quads % Tile::consumers;
  const int rank = blockIdx.x / (quads * Tile::consumers) % Tile::cluster;
  const int j = blockIdx.x / (quads * Tile::consumers * Tile::cluster);  // rest tile
  const int first = sk.tail.first_slot(j), last = sk.tail.last_slot(j);

  float4 sum[Acc::count];
#pragma unroll
  for (int s = 0; s < Acc::count; ++s) {
    const int at = (s * quads + quad) * 128 + thread;
    sum[s] = partial_sums<Policy, Tile>(sk, 2 * first + sk.tail.part(first, j), rank, consumer)[at];
  }
#pragma unroll 4
  for (int slot = first + 1; slot <= last; ++slot) {
    const float4* from = partial_sums<Policy, Tile>(sk, 2 * slot + sk.tail.part(slot, j), rank, consumer);
#pragma unroll
    for (int s = 0; s < Acc::count; ++s) {
      const float4 x = from[(s * quads + quad) * 128 + thread];
      sum[s] = make_float4(__fadd_rn(sum[s].x, x.x), __fadd_rn(sum[s].y, x.y), __fadd_rn(sum[s].z, x.z),
                           __fadd_rn(sum[s].w, x.w));
    }
  }

  const TileCoord tile = block_tile<Tile>(p, sk.tail.whole + j, rank);
  const int warp = thread / 32, lane = thread % 32;
  const float main[4] = {sum[0].x, sum[0].y, sum[0].z, sum[0].w};
  float correction[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if constexpr (Acc::count > 1) {
    correction[0] = sum[1].x, correction[1] = sum[1].y, correction[2] = sum[1].z, correction[3] = sum[1].w;
  }
#pragma unroll
  for (int h = 0; h < 2; ++h)
#pragma unroll
    for (int w = 0; w < 2; ++w) {  // register 2 h + w of the n8 block, as in the kernel's epilogue
      const index_t row = static_cast<index_t>(tile.m) * Tile::bm + consumer * 64 + warp * 16 + h * 8 + lane / 4;
      const index_t col = static_cast<index_t>(tile.n) * Tile::bn + quad * 8 + (lane % 4) * 2 + w;
      if (row >= p.m || col >= p.n || p.a_nonfinite[row] != 0 || p.b_nonfinite[col] != 0) continue;
      const int exponent = traits::scales_rows_and_columns ? p.a_exponent[row] + p.b_exponent[col] : 0;
      const float v = combine_accumulators(main[2 * h + w], correction[2 * h + w], traits::lo_scale_log2, exponent);
      float* c = p.c + row + col * p.ldc;
      *c = apply_alpha_beta(v, p.alpha, p.beta, c);
    }
}

}  // namespace egemm::cuda::hopper
