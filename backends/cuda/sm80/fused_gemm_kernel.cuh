// The fused gemm kernel template, built from named stages:
//   load stage   : cp.async of one k-tile of every piece into a pipeline stage (smem_pipeline.hpp)
//   fragments    : ldmatrix of the warp's A and B pieces for one mma step, once per piece
//   warp mma     : every product term of the policy issued from those registers
//   epilogue     : combine accumulators, undo the row/column scaling, alpha/beta
//                  (strip_epilogue.cuh, shared with the Hopper kernel)
// The policy's traits decide the pieces, the terms, their accumulators and
// the fold; the piece format (FP16 or TF32) decides the mma instruction
// (Int8Slices: INT8 digits into exact int32 sums, warp_integer_sums.cuh).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/common/piece_format.hpp"
#include "backends/cuda/common/strip_epilogue.cuh"
#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/sm80/mma_sm80.hpp"
#include "backends/cuda/sm80/smem_pipeline.hpp"
#include "backends/cuda/sm80/warp_fragments.cuh"
#include "backends/cuda/sm80/warp_integer_sums.cuh"
#include "egemm/policy.hpp"

namespace egemm::cuda {

template <class Policy, class Format, class Tile>
struct WarpAccumulators {
  using traits = policy_traits<Policy>;
  using Frags = WarpFragments<Policy, Tile>;
  static constexpr int count = traits::products > 1 && traits::terms[traits::products - 1].accumulator == 1 ? 2 : 1;
  static constexpr bool folds = traits::fold_main_each_k_step;
  static constexpr int steps_per_fold = fold_k / Format::mma_k;  // 1 (FP16) or 2 (TF32)
  float acc[count][Tile::m_frags][Tile::n_frags][4];

  __device__ __forceinline__ void zero() { zero_fragments(acc); }

  // Terms are the outer loop so the m x n independent mmas of a term hide
  // each other's latency; each accumulator still sees its terms in order.
  // A folded term goes to `step` (this fold's k-step sum) instead of acc.
  __device__ __forceinline__ void mma_step(const Frags& f, float (*step)[Tile::n_frags][4]) {
    for_each_term(
        [&](auto t) {
          constexpr ProductTerm term = traits::terms[decltype(t)::value];
          constexpr int ap = static_cast<int>(term.a), bp = static_cast<int>(term.b), s = term.accumulator;
          constexpr bool fold = folds && decltype(t)::value == 0;
#pragma unroll
          for (int mi = 0; mi < Tile::m_frags; ++mi)
#pragma unroll
            for (int ni = 0; ni < Tile::n_frags; ++ni) {
              if constexpr (fold && steps_per_fold == 1) {
                // The whole k-step in one FP16 mma (mma_k 16): sum from zero, then one RN add.
                float sum[4];
                sm80::mma_f16_f32_zero_c(sum, f.a[ap][mi], f.b[bp][ni]);
#pragma unroll
                for (int v = 0; v < 4; ++v) acc[s][mi][ni][v] = __fadd_rn(acc[s][mi][ni][v], sum[v]);
              } else if constexpr (fold) {
                Format::mma(step[mi][ni], f.a[ap][mi], f.b[bp][ni], step[mi][ni]);
              } else {
                Format::mma(acc[s][mi][ni], f.a[ap][mi], f.b[bp][ni], acc[s][mi][ni]);
              }
            }
        },
        std::make_integer_sequence<int, traits::products>{});
  }

  // Every mma step of one k-tile (a pipeline stage). With fragment prefetch,
  // step s + 1's fragments are loaded before step s's mmas issue, so the
  // ldmatrix latency hides behind them. A folded term's sum over one fold
  // k-step (16 values of k: one FP16 mma, two TF32 ones) joins its FP32
  // accumulator with one RN add, so the tensor core's truncating accumulation
  // never spans more than that k-step.
  __device__ __forceinline__ void k_tile(unsigned char* smem, int stage, int warp_row, int warp_col, int lane) {
    constexpr bool prefetch = Tile::prefetch_fragments;
    constexpr bool sums_steps = folds && steps_per_fold > 1;
    static_assert(Tile::mma_steps % steps_per_fold == 0, "a k-tile holds whole fold k-steps");
    Frags f[prefetch ? 2 : 1];
    float step[Tile::m_frags][Tile::n_frags][4];
    if constexpr (prefetch) f[0].load(smem, stage, 0, warp_row, warp_col, lane);
    // Without prefetch the register budget is tight (EmulatedFP32): a rolled
    // loop keeps ptxas from hoisting later steps' fragments, which would spill.
#pragma unroll(prefetch ? Tile::mma_steps : 1)
    for (int s = 0; s < Tile::mma_steps; ++s) {
      Frags& current = f[prefetch ? s % 2 : 0];
      if constexpr (prefetch) {
        if (s + 1 < Tile::mma_steps) f[(s + 1) % 2].load(smem, stage, s + 1, warp_row, warp_col, lane);
      } else {
        current.load(smem, stage, s, warp_row, warp_col, lane);
      }
      if constexpr (sums_steps) {
        if (s % steps_per_fold == 0) {
#pragma unroll
          for (int mi = 0; mi < Tile::m_frags; ++mi)
#pragma unroll
            for (int ni = 0; ni < Tile::n_frags; ++ni)
#pragma unroll
              for (int v = 0; v < 4; ++v) step[mi][ni][v] = 0.0f;
        }
      }
      mma_step(current, step);
      if constexpr (sums_steps) {
        if (s % steps_per_fold == steps_per_fold - 1) {
          constexpr int main_acc = traits::terms[0].accumulator;
#pragma unroll
          for (int mi = 0; mi < Tile::m_frags; ++mi)
#pragma unroll
            for (int ni = 0; ni < Tile::n_frags; ++ni)
#pragma unroll
              for (int v = 0; v < 4; ++v)
                acc[main_acc][mi][ni][v] = __fadd_rn(acc[main_acc][mi][ni][v], step[mi][ni][v]);
        }
      }
    }
  }
};

// Strip mi (16 rows) of the warp's accumulators as the shared epilogue sees
// them (strip_epilogue.cuh): fragment [mi][j] is the strip's n8 block j.
template <class Policy, class Format, class Tile>
struct MmaStrip {
  using Acc = WarpAccumulators<Policy, Format, Tile>;
  static constexpr int n8_blocks = Tile::n_frags;
  const Acc& acc;
  int mi;
  template <bool AllNormal>
  __device__ __forceinline__ float entry(int j, int h, int w, int exponent) const {
    const int v = 2 * h + w;
    return combined_entry<Policy, AllNormal>(acc.acc[0][mi][j][v], Acc::count > 1 ? acc.acc[Acc::count - 1][mi][j][v] : 0.0f,
                                             exponent);
  }
};

// The warp's warp_m x warp_n entries of C, one strip of 16 rows per m fragment.
template <class Policy, class Format, class Tile>
__device__ __forceinline__ void epilogue(const WarpAccumulators<Policy, Format, Tile>& acc, const FusedGemmParams& p,
                                         index_t row0, index_t col0, int lane) {
#pragma unroll
  for (int mi = 0; mi < Tile::m_frags; ++mi)
    write_strip<Policy>(MmaStrip<Policy, Format, Tile>{acc, mi}, p, row0 + mi * 16, col0, lane);
}

// Block b's tile of C. Consecutive blocks walk `group` m-tiles, then the next
// n-tile: the blocks resident together (a wave) cover a squarish patch of C,
// so the op(A) row panels and op(B) column panels they read stay in L2
// (m-fastest over all of m would stream the whole of op(A) from DRAM every wave).
struct TileCoord {
  int m, n;
};
__device__ __forceinline__ TileCoord tile_order(int block, int tiles_m, int tiles_n, int group = 8) {
  const int per_group = group * tiles_n;
  const int first_m = (block / per_group) * group;
  const int rows = min(tiles_m - first_m, group);
  const int in_group = block % per_group;
  return {first_m + in_group % rows, in_group / rows};
}

template <class Policy, class Format, class Tile>
__global__ void __launch_bounds__(Tile::threads, Tile::min_blocks_per_sm) fused_gemm_kernel(const FusedGemmParams p) {
  if (!path_selected(p.path_word, p.path)) return;  // EmulatedFP32 chose another path on the device
  using traits = policy_traits<Policy>;
  using Accumulators = std::conditional_t<traits::integer_sums, WarpIntegerSums<Policy, Tile>,
                                          WarpAccumulators<Policy, Format, Tile>>;
  constexpr int pieces = traits::pieces_per_operand;
  extern __shared__ __align__(128) unsigned char smem[];

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_row = (warp % Tile::warps_m) * Tile::warp_m, warp_col = (warp / Tile::warps_m) * Tile::warp_n;
  const TileCoord tile = tile_order(static_cast<int>(blockIdx.x), p.tiles_m, p.tiles_n);
  const index_t block_row = static_cast<index_t>(tile.m) * Tile::bm;
  const index_t block_col = static_cast<index_t>(tile.n) * Tile::bn;
  const index_t ld = p.k_pad * static_cast<index_t>(sizeof(typename Format::storage));  // bytes per row

  const unsigned char* a[pieces];
  const unsigned char* b[pieces];
#pragma unroll
  for (int piece = 0; piece < pieces; ++piece) {
    a[piece] = static_cast<const unsigned char*>(p.a[piece]) + block_row * ld;
    b[piece] = static_cast<const unsigned char*>(p.b[piece]) + block_col * ld;
  }

  Accumulators acc;
  acc.zero();
  const int k_tiles = static_cast<int>(ld / Tile::row_bytes);

  // Prologue: stages - 1 k-tiles in flight. Every iteration commits a group
  // (possibly empty) so wait_group's count stays in step with the k-tiles.
#pragma unroll
  for (int s = 0; s < Tile::stages - 1; ++s) {
    if (s < k_tiles) load_stage<Tile, pieces>(smem, s, a, b, ld, static_cast<index_t>(s) * Tile::row_bytes);
    sm80::cp_async_commit();
  }

  for (int kt = 0; kt < k_tiles; ++kt) {
    sm80::cp_async_wait<Tile::stages - 2>();  // k-tile kt has landed (this thread's copies)
    __syncthreads();                          // ... everyone's; and stage kt - 1 is no longer read
    const int next = kt + Tile::stages - 1;
    if (next < k_tiles)
      load_stage<Tile, pieces>(smem, next % Tile::stages, a, b, ld, static_cast<index_t>(next) * Tile::row_bytes);
    sm80::cp_async_commit();

    const int stage = kt % Tile::stages;
    acc.k_tile(smem, stage, warp_row, warp_col, lane);
  }
  sm80::cp_async_wait<0>();

  epilogue<Policy, Format, Tile>(acc, p, block_row + warp_row, block_col + warp_col, lane);
}

}  // namespace egemm::cuda
