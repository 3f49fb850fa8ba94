// The stream-K tail's partial sums: where each slot's unscaled sums go in
// global memory, how a consumer stores them, and the fixup kernel that adds
// them in slot order (the same on every run) and finishes each entry as the
// kernel's epilogue would.
#pragma once

#include <cstddef>

#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/fused_gemm.hpp"
#include "backends/cuda/sm90/tile_schedule.cuh"
#include "backends/cuda/sm90/warpgroup_accumulators.cuh"
#include "egemm/model/stream_k_tail.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda::hopper {

// Where the stream-K tail's partial sums go: buffer 2 slot + part, within it
// each block of the cluster, consumer warpgroup and sum, [entry / 4][thread]
// float4s so that a warpgroup's stores and loads are whole 512-byte lines.
struct StreamKArgs {
  model::StreamKTail tail;
  float* partials;
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
