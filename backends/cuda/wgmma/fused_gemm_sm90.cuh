// EmulatedFP32's fused gemm on Hopper's warpgroup MMA. Same split pieces,
// same shared-memory pipeline (cp.async into 128-byte swizzled k-tiles, which
// is exactly wgmma's 128B-swizzle K-major layout), same fold and epilogue as
// the mma.sync kernel; the math is wgmma.mma_async from shared memory:
//   block tile 128 x 128, two consumer warpgroups of 64 x 128, k-tile 64;
//   per k-tile and warpgroup: 4 hi*hi instructions into `step` (the first
//   zeroes it), committed as one group; 8 correction instructions into `corr`,
//   a second group; wait for the first, fold `step` into `main` with RN adds
//   while the corrections run, and refill the previous k-tile's stage; the
//   corrections complete during the next k-tile.
// The fold therefore spans one k-tile (64 values of k, 4 instructions), not
// one instruction: docs/tensor-core-numerics.md explains why that is enough.
#pragma once

#include <cstdint>

#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/fold_length.hpp"
#include "backends/cuda/fused_gemm.hpp"
#include "backends/cuda/fused_gemm_kernel.cuh"
#include "backends/cuda/sm90/wgmma.hpp"
#include "backends/cuda/smem_pipeline.hpp"
#include "backends/cuda/strip_epilogue.cuh"
#include "egemm/policy.hpp"

namespace egemm::cuda::sm90 {

using hopper::fence_registers;
using hopper::wgmma_commit;
using hopper::wgmma_fence;
using hopper::wgmma_m64n128k16_f16;
using hopper::wgmma_wait;

// The wgmma descriptor of a 128-byte-swizzled K-major tile smem_pipeline.hpp wrote.
__device__ __forceinline__ std::uint64_t descriptor(const unsigned char* tile) {
  return hopper::smem_descriptor_sw128(hopper::smem_u32(tile));
}

// The work decomposition as smem_pipeline.hpp expects it.
struct WarpgroupTile {
  static constexpr int bm = 128, bn = 128;  // two warpgroups of 64 rows, all 128 columns each
  static constexpr int row_bytes = 128;     // k-tile: 64 FP16 values
  static constexpr int stages = 3;
  static constexpr int threads = 256;
  static constexpr int warpgroup_rows = 64;
};

static_assert(wgmma_fold_k * 2 == WarpgroupTile::row_bytes, "the fold spans one k-tile (fold_length.hpp)");

// A warp's 16 rows of the m64n128 sums as the shared epilogue sees them
// (strip_epilogue.cuh): warp w of the group holds rows 16 w + lane / 4 and
// + 8; register 4 j + {0, 1} columns 8 j + 2 (lane % 4) + {0, 1} of the first
// row, 4 j + {2, 3} of the second.
struct SumsStrip {
  static constexpr int n8_blocks = 16;
  const float (&main_sum)[64];
  const float (&correction_sum)[64];
  template <bool AllNormal>
  __device__ __forceinline__ float entry(int j, int h, int w, int exponent) const {
    const int v = 4 * j + 2 * h + w;
    return combined_entry<EmulatedFP32, AllNormal>(main_sum[v], correction_sum[v], exponent);
  }
};

template <class Policy>
__global__ void __launch_bounds__(WarpgroupTile::threads, 1) fused_gemm_sm90_kernel(const FusedGemmParams p) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  using traits = policy_traits<Policy>;
  static_assert(traits::products == 3 && traits::fold_main_each_k_step && traits::pieces_per_operand == 2,
                "the warpgroup kernel implements the three-term folded FP16 scheme (EmulatedFP32)");
  using Tile = WarpgroupTile;
  using Layout = StageLayout<Tile, 2>;
  if (!path_selected(p.path_word, p.path)) return;
  // wgmma's 128-byte swizzle is a function of the address: tiles start on 1024 bytes.
  extern __shared__ unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) &
                                                         ~static_cast<std::uintptr_t>(1023));

  const int warpgroup = threadIdx.x / 128, lane_in_group = threadIdx.x % 128;
  const TileCoord tile = tile_order(static_cast<int>(blockIdx.x), p.tiles_m, p.tiles_n);
  const index_t block_row = static_cast<index_t>(tile.m) * Tile::bm, block_col = static_cast<index_t>(tile.n) * Tile::bn;
  const index_t ld = p.k_pad * 2;  // bytes per row of a piece
  const unsigned char* a[2];
  const unsigned char* b[2];
#pragma unroll
  for (int piece = 0; piece < 2; ++piece) {
    a[piece] = static_cast<const unsigned char*>(p.a[piece]) + block_row * ld;
    b[piece] = static_cast<const unsigned char*>(p.b[piece]) + block_col * ld;
  }

  float main_acc[64], step[64], corr[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) main_acc[i] = corr[i] = step[i] = 0.0f;

  const int k_tiles = static_cast<int>(ld / Tile::row_bytes);
#pragma unroll
  for (int s = 0; s < Tile::stages - 1; ++s) {
    if (s < k_tiles) load_stage<Tile, 2>(smem, s, a, b, ld, static_cast<index_t>(s) * Tile::row_bytes);
    sm80::cp_async_commit();
  }

  const int a_offset = warpgroup * Tile::warpgroup_rows * Tile::row_bytes;
  for (int kt = 0; kt < k_tiles; ++kt) {
    sm80::cp_async_wait<Tile::stages - 2>();
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // this thread's cp.async writes -> wgmma reads
    __syncthreads();  // k-tile kt is in shared memory
    const int stage = kt % Tile::stages;
    const std::uint64_t a_hi = descriptor(Layout::a(smem, stage, 0) + a_offset);
    const std::uint64_t a_lo = descriptor(Layout::a(smem, stage, 1) + a_offset);
    const std::uint64_t b_hi = descriptor(Layout::b(smem, stage, 0));
    const std::uint64_t b_lo = descriptor(Layout::b(smem, stage, 1));

    fence_registers(step);
    fence_registers(corr);
    wgmma_fence();
    // k16 slice s starts 32 s bytes into each row: 2 s in the descriptors' 16-byte units.
    wgmma_m64n128k16_f16(step, a_hi, b_hi, 0);
#pragma unroll
    for (int s = 1; s < Tile::row_bytes / 32; ++s) wgmma_m64n128k16_f16(step, a_hi + 2 * s, b_hi + 2 * s, 1);
    wgmma_commit();
#pragma unroll
    for (int s = 0; s < Tile::row_bytes / 32; ++s) {
      wgmma_m64n128k16_f16(corr, a_hi + 2 * s, b_lo + 2 * s, 1);
      wgmma_m64n128k16_f16(corr, a_lo + 2 * s, b_hi + 2 * s, 1);
    }
    wgmma_commit();
    // Groups complete in order: this leaves only k-tile kt's corrections in
    // flight, so hi*hi of kt and everything of kt - 1 are done.
    wgmma_wait<1>();
    fence_registers(step);
#pragma unroll
    for (int i = 0; i < 64; ++i) main_acc[i] = __fadd_rn(main_acc[i], step[i]);
    // Both warpgroups are past k-tile kt - 1, so its stage can take k-tile
    // kt + stages - 1 while kt's corrections still run.
    __syncthreads();
    const int next = kt + Tile::stages - 1;
    if (next < k_tiles)
      load_stage<Tile, 2>(smem, next % Tile::stages, a, b, ld, static_cast<index_t>(next) * Tile::row_bytes);
    sm80::cp_async_commit();
  }
  wgmma_wait<0>();
  fence_registers(corr);
  sm80::cp_async_wait<0>();

  const int warp = lane_in_group / 32, lane = lane_in_group % 32;
  write_strip<Policy>(SumsStrip{main_acc, corr}, p, block_row + warpgroup * Tile::warpgroup_rows + warp * 16, block_col,
                      lane);
#elif defined(__CUDA_ARCH__)
  (void)p;
  __trap();  // code without sm_90a's features: the host's check (loaded_code.hpp) never launches it
#endif
}

}  // namespace egemm::cuda::sm90
