// The shape of the fused gemm's work decomposition, as a type: a thread block
// computes a bm x bn tile of C, each warp a warp_m x warp_n part of it, from
// k-tiles of 128 bytes per row (64 FP16 or 32 TF32 values) streamed through
// `stages` shared-memory buffers. With PrefetchFragments the warp loads the
// next mma step's fragments before issuing the current step's mmas (double
// buffered registers), where the register budget allows it.
#pragma once

namespace egemm::cuda {

template <int BM, int BN, int WarpM, int WarpN, int Stages, bool PrefetchFragments, int MinBlocksPerSM = 1>
struct TileConfig {
  static constexpr int min_blocks_per_sm = MinBlocksPerSM;  // __launch_bounds__: caps registers at 64K / (threads x this)
  static constexpr int bm = BM, bn = BN;
  static constexpr int warp_m = WarpM, warp_n = WarpN;
  static constexpr int stages = Stages;
  static constexpr bool prefetch_fragments = PrefetchFragments;
  static constexpr int row_bytes = 128;  // one k-tile row: eight 16-byte chunks, one full bank line
  static constexpr int chunks = row_bytes / 16;

  static constexpr int warps_m = bm / warp_m, warps_n = bn / warp_n;
  static constexpr int warps = warps_m * warps_n;
  static constexpr int threads = warps * 32;

  // The warp tile is m_frags x n_frags mma instructions (16x8 each) per k-step.
  static constexpr int m_frags = warp_m / 16, n_frags = warp_n / 8;
  static constexpr int mma_steps = chunks / 2;  // one mma reads two chunks of k

  static_assert(bm % warp_m == 0 && bn % warp_n == 0, "warps must tile the block");
  static_assert(warp_m % 16 == 0 && warp_n % 16 == 0, "B fragments are loaded 16 columns at a time");
  static_assert(stages >= 2, "a pipeline needs at least two buffers");
};

// Every tile keeps its pipeline within 96 KiB of shared memory, under the
// per-block limit of every sm_80+ GPU (99 KiB on sm_86/sm_89, 163 KiB on A100).

// One piece per operand (Half): 128x128 blocks of 8 warps (2 x 4, 64x32 each),
// 3 stages, at most 128 registers a thread: two blocks share an SM and cover
// each other's barrier waits.
using Fp16OnePieceTile = TileConfig<128, 128, 64, 32, 3, true, 2>;
// Two pieces per operand: 128x64 blocks of 4 warps (2 x 2, 64x32 each), 2
// stages, two blocks per SM. Measured on an H100 for EmulatedFP32: 3% faster
// at 8192^3 than one 128x128 block of 8 warps with 3 stages
// (perf_tests/gemm_suite with the mma.sync kernel).
using Fp16Tile = TileConfig<128, 64, 64, 32, 2, true, 2>;
// EmulatedFP32 holds two 64x32 accumulators (main, correction) per warp: no
// registers are left for a second set of fragments.
using Fp16TwoAccumulatorTile = TileConfig<128, 64, 64, 32, 2, false, 2>;
// TF32 pieces (the full-range path): a 32x32 warp tile leaves registers for the
// k-step sum the fold needs across the two k8 mmas of a 16-wide k-step.
using Tf32Tile = TileConfig<128, 64, 32, 32, 2, true>;

// Int8Slices' three digit pieces (1 byte each, k-tiles of 128 values): 64x64
// blocks of 4 warps (32x32 each: three int32 sums and the fragments of three
// pieces), 2 stages of 48 KiB.
using Int8Tile = TileConfig<64, 64, 32, 32, 2, false>;

// Rows of op(A) and columns of op(B) are padded to this (a multiple of every tile's bm, bn).
inline constexpr int split_row_multiple = 128;
// k is padded to this many elements (a multiple of both formats' k-tile: 64 FP16, 32 TF32).
inline constexpr int split_depth_multiple = 64;

}  // namespace egemm::cuda
