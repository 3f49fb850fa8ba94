// A consumer warpgroup's sums: each product term of the policy as chained
// wgmmas from the stage ring, the main term folded into FP32 with
// round-to-nearest adds every k-tile, the corrections in their own
// accumulator; and the view of them the shared epilogue reads.
#pragma once

#include <cstdint>
#include <utility>

#include "backends/cuda/common/fold_length.hpp"
#include "backends/cuda/common/strip_epilogue.cuh"  // combined_entry
#include "backends/cuda/sm80/fused_gemm_kernel.cuh"  // for_each_term
#include "backends/cuda/sm90/wgmma.hpp"
#include "backends/cuda/split/split_operand.hpp"  // max_pieces
#include "egemm/policy.hpp"

namespace egemm::cuda::hopper {

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

  // Sum s's entry v as a 32-bit word (the stream-K tail's partial sums).
  __device__ __forceinline__ std::uint32_t word(int s, int v) const { return __float_as_uint(acc[s][v]); }

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
  __device__ __forceinline__ void k_tile(const std::uint32_t (&a)[max_pieces], const std::uint32_t (&b)[max_pieces], int kt, int k_tiles) {
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
            constexpr bool starts = starts_accumulator<traits>(i);
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
  template <bool AllNormal>
  __device__ __forceinline__ float entry(int j, int h, int w, int exponent) const {
    const int v = 4 * j + 2 * h + w;
    return combined_entry<Policy, AllNormal>(acc.acc[0][v], Acc::count > 1 ? acc.acc[Acc::count - 1][v] : 0.0f,
                                             exponent);
  }
};

}  // namespace egemm::cuda::hopper
