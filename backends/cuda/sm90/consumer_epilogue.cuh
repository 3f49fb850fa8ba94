// What a consumer warpgroup does with a finished tile: the shared strip
// epilogue (combine, unscale, alpha/beta) writing C from registers, or
// staged through shared memory and stored by TMA (StagedC); and the L1
// prefetch of the flags and exponents it reads, issued during the k-loop.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/common/strip_epilogue.cuh"
#include "backends/cuda/sm90/mbarrier.hpp"
#include "backends/cuda/sm90/stage_ring.cuh"
#include "backends/cuda/sm90/tma.hpp"
#include "backends/cuda/sm90/warpgroup_accumulators.cuh"
#include "backends/cuda/sm90/warpgroup_integer_sums.cuh"
#include "egemm/model/hopper_tiles.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda::hopper {

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
template <class Policy, class Tile, class Sink = StoreToC>
__device__ __forceinline__ void epilogue(WarpgroupIntegerSums<Policy, Tile>& sums, const FusedGemmParams& p,
                                         index_t row0, index_t col0, int thread, const Sink& sink = Sink{}) {
  sums.fold_to_exact();
  write_strip<Policy>(WgmmaIntegerStrip<Policy, Tile>{sums}, p, row0 + thread / 32 * 16, col0, thread % 32, sink);
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

}  // namespace egemm::cuda::hopper
