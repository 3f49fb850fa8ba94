// EmulatedFP32's split inside the Hopper kernel: instead of a split pass that
// writes the FP16 pieces to global memory for the kernel to read back, the
// kernel's producer warpgroup reads op(A) and op(B)^T as FP32 (TMA, in half
// k-tiles of 32 values) and writes their scaled hi/lo pieces straight into
// the ring the consumers' wgmmas read. The operands cross L2 once, as four
// bytes a value either way, and the pieces never touch DRAM: the split pass
// cost ~20% of the call at 4096^3 (perf_tests/results/2026-11-23-h100-stream-k.md).
// The pieces are the split pass's bits (same scaling, same conversions), so
// the results are too. The stats pass and the path choice still run first:
// every row's power-of-two scale depends on its largest element.
//
//   SourceStaging   : the FP32 half k-tiles' slots in front of the pieces ring
//   HalfTileWalk    : the producer's lookahead over the block's stretches
//   split_k_chunk   : 8 values of one row -> their hi and lo pieces, swizzled
//   splitting_producer: the warpgroup's loop (thread 0 also issues the TMA)
#pragma once

#include <cuda.h>

#include <cstdint>

#include "backends/cuda/sm90/fused_gemm_tma_kernel.cuh"
#include "backends/cuda/split_panel.cuh"
#include "egemm/numerics/pow2.hpp"

namespace egemm::cuda::hopper {

// Slots of FP32 half k-tiles: op(A)'s bm rows then op(B)^T's bn rows of 32
// values of k, 1024-byte aligned, in front of Tile's ring of pieces; their
// `full` barriers after the ring's own. Three slots and two stages of pieces
// fill 227 KiB with a 128 x 128 tile.
template <class Tile>
struct SourceStaging {
  static constexpr int slots = 3;
  static constexpr int k = 32;  // one 128-byte row of FP32
  static constexpr int a_bytes = Tile::bm * k * 4, b_bytes = Tile::bn * k * 4;
  static constexpr int slot_bytes = a_bytes + b_bytes;
  static constexpr int smem_bytes = Tile::smem_bytes + slots * slot_bytes + slots * 8;
  // The split needs more registers than TMA issue: the consumers give up 8 each.
  static constexpr int producer_registers = 80;
  static constexpr int consumer_registers =
      (model::launch_registers(Tile::shape) * Tile::threads - producer_registers * 128) / (128 * Tile::consumers) / 8 * 8;
  static_assert(slot_bytes % 1024 == 0, "the pieces ring behind the slots stays 1024-byte aligned");
  static_assert(smem_bytes <= 227 * 1024, "slots and ring fit the SM's shared memory");
  static_assert(Tile::bm == 128 && Tile::bn == 128 && Tile::cluster == 1 && Tile::element_bytes == 2,
                "one producer thread per row of op(A) and of op(B)^T; single blocks, FP16 pieces");

  unsigned char* base;
  __device__ __forceinline__ unsigned char* a(int slot) const { return base + slot * slot_bytes; }
  __device__ __forceinline__ unsigned char* b(int slot) const { return a(slot) + a_bytes; }
  __device__ __forceinline__ StageRing<Tile> pieces() const { return {base + slots * slot_bytes}; }
  __device__ __forceinline__ std::uint64_t* full(int slot) const {
    return pieces().full(0) + 2 * Tile::stages + slot;
  }
};

// How each operand lies in global memory, hence its TMA box: k contiguous
// (boxes of 32 k x rows, 128B-swizzled so that a warp's rows hit distinct
// banks) or rows contiguous (32 k x rows stored k-major, unswizzled: a warp
// reads 32 consecutive rows of one k).
struct SourceLayout {
  bool a_rows_contiguous, b_rows_contiguous;
};

// The load side's position: stretch, k-tile, half. Thread 0 runs it
// `slots` half k-tiles ahead of the split.
template <class Tile>
struct HalfTileWalk {
  const TileSchedule<Tile>& schedule;
  int k_tiles;
  typename TileSchedule<Tile>::Stretch s;
  int kt, half = 0;
  __device__ __forceinline__ HalfTileWalk(const TileSchedule<Tile>& sched, int tiles)
      : schedule(sched), k_tiles(tiles), s(sched.first(tiles)), kt(s.k_begin) {}
  __device__ __forceinline__ bool done() const { return s.k_begin >= s.k_end; }
  __device__ __forceinline__ void advance() {
    if (++half < 2) return;
    half = 0;
    if (++kt < s.k_end) return;
    s = schedule.next(s, k_tiles);
    kt = s.k_begin;
  }
};

// The walk's current half k-tile of both operands into `slot`.
template <class Tile>
__device__ __forceinline__ void load_half_tile(const SourceStaging<Tile>& staging, int slot, const CUtensorMap* a,
                                               const CUtensorMap* b, SourceLayout layout, const HalfTileWalk<Tile>& w) {
  const TileCoord tile = w.schedule[w.s.order];
  const int k = (2 * w.kt + w.half) * SourceStaging<Tile>::k, row_a = tile.m * Tile::bm, row_b = tile.n * Tile::bn;
  mbarrier_arrive_expect_tx(staging.full(slot), SourceStaging<Tile>::slot_bytes);  // out-of-range rows count too (zeros)
  // A map's first coordinate is its contiguous dimension.
  tma_load_2d(staging.a(slot), a, staging.full(slot), layout.a_rows_contiguous ? row_a : k,
              layout.a_rows_contiguous ? k : row_a);
  tma_load_2d(staging.b(slot), b, staging.full(slot), layout.b_rows_contiguous ? row_b : k,
              layout.b_rows_contiguous ? k : row_b);
}

// Eight values by value, for the out-of-line path below.
struct EightValues {
  float v[8];
};

// scale_by_pow2 of each value (rows below 2^-112): rare, so out of line and
// away from the hot loop's registers and instruction cache.
inline __device__ __noinline__ EightValues scale_eight_by_pow2(EightValues x, int e) {
#pragma unroll
  for (int i = 0; i < 8; ++i) x.v[i] = numerics::scale_by_pow2(x.v[i], e);
  return x;
}

// A row's power-of-two scale, 2^-exponent (the stats pass's range_exponent);
// rows past the operand (zeros) take 1.
struct RowScale {
  int exponent;
  __device__ __forceinline__ RowScale(const int* exponents, index_t row, index_t rows)
      : exponent(row < rows ? __ldg(exponents + row) : 0) {}
  // As the split pass's read_row_values: one normal factor where it does it, scale_by_pow2 otherwise.
  __device__ __forceinline__ void apply(float (&x)[8]) const {
    if (-exponent >= -126 && -exponent <= 127) {
      const float factor = numerics::pow2_normal(-exponent);
#pragma unroll
      for (int v = 0; v < 8; ++v) x[v] *= factor;  // Inf and NaN rows are recomputed: their pieces are unused
    } else {
      EightValues in;
#pragma unroll
      for (int v = 0; v < 8; ++v) in.v[v] = x[v];
      const EightValues out = scale_eight_by_pow2(in, -exponent);
#pragma unroll
      for (int v = 0; v < 8; ++v) x[v] = out.v[v];
    }
  }
};

// Values 8 c .. 8 c + 7 of the slot's 32 (c < 4) in row `row` of a staged box of `rows` rows.
// Plain accesses (the box derives from the shared array: LDS), so that the
// compiler may overlap one chunk's loads with another's arithmetic; the
// mbarrier waits' memory clobbers keep them after the data landed.
__device__ __forceinline__ void read_k_chunk(const unsigned char* box, bool rows_contiguous, int rows, int row, int c,
                                             float (&x)[8]) {
  if (rows_contiguous) {  // [32 k][rows]
    const float* column = reinterpret_cast<const float*>(box) + row;
#pragma unroll
    for (int v = 0; v < 8; ++v) x[v] = column[(8 * c + v) * rows];
  } else {  // [rows][32 k], 16-byte chunk j of a row at j ^ (row % 8)
    const unsigned char* r = box + row * 128;
    const float4 lo = *reinterpret_cast<const float4*>(r + (((2 * c) ^ (row & 7)) << 4));
    const float4 hi = *reinterpret_cast<const float4*>(r + (((2 * c + 1) ^ (row & 7)) << 4));
    x[0] = lo.x, x[1] = lo.y, x[2] = lo.z, x[3] = lo.w, x[4] = hi.x, x[5] = hi.y, x[6] = hi.z, x[7] = hi.w;
  }
}

// split_panel::half_pieces_of_finite_pair for round_scaled_lo without its
// Inf mask: a scaled row's largest magnitude is below 2^15, so hi never
// overflows where the pieces are used (rows with Inf or NaN are recomputed).
__device__ __forceinline__ void scaled_pieces_of_pair(float a, float b, std::uint32_t& hi, std::uint32_t& lo) {
  using split_panel::half_high;
  using split_panel::half_low;
  using split_panel::half_pair;
  hi = half_pair<numerics::HalfRounding::nearest_even>(a, b);
  lo = half_pair<numerics::HalfRounding::nearest_even>((a - half_low(hi)) * 2048.0f, (b - half_high(hi)) * 2048.0f);
}

// 8 values (k-tile chunk `chunk` of 8, row `row`) as their hi and lo pieces,
// at the place TMA's 128B swizzle would have put them: 16-byte chunk j of
// a 128-byte row at j ^ (row % 8).
__device__ __forceinline__ void split_k_chunk(const float (&x)[8], unsigned char* hi_box, unsigned char* lo_box, int row,
                                              int chunk) {
  std::uint32_t hi[4], lo[4];
#pragma unroll
  for (int w = 0; w < 4; ++w) scaled_pieces_of_pair(x[2 * w], x[2 * w + 1], hi[w], lo[w]);
  const int at = row * 128 + ((chunk ^ (row & 7)) << 4);
  *reinterpret_cast<uint4*>(hi_box + at) = make_uint4(hi[0], hi[1], hi[2], hi[3]);
  *reinterpret_cast<uint4*>(lo_box + at) = make_uint4(lo[0], lo[1], lo[2], lo[3]);
}

// The producer warpgroup: thread t splits row t of op(A) and of op(B)^T.
// Per k-tile: wait for a free stage of pieces; per half, wait for the FP32
// slot, split its 4 chunks of each row, and (once every thread has read it)
// thread 0 refills the slot `slots` half k-tiles ahead; then every thread
// fences its stores for the wgmmas and arrives on the stage's `full`.
template <class Tile>
__device__ __forceinline__ void splitting_producer(const SourceStaging<Tile>& staging, const CUtensorMap* a,
                                                   const CUtensorMap* b, SourceLayout layout,
                                                   const TileSchedule<Tile>& schedule, const FusedGemmParams& p,
                                                   int k_tiles, int thread) {
  constexpr int slots = SourceStaging<Tile>::slots;
  HalfTileWalk<Tile> load(schedule, k_tiles);
  if (thread == 0)
    for (int slot = 0; slot < slots && !load.done(); ++slot, load.advance())
      load_half_tile(staging, slot, a, b, layout, load);
  const StageRing<Tile> ring = staging.pieces();
  RingCursor from, to;
  for (auto s = schedule.first(k_tiles); s.k_begin < s.k_end; s = schedule.next(s, k_tiles)) {
    const TileCoord tile = schedule[s.order];
    const RowScale scale_a(p.a_exponent, static_cast<index_t>(tile.m) * Tile::bm + thread, p.m);
    const RowScale scale_b(p.b_exponent, static_cast<index_t>(tile.n) * Tile::bn + thread, p.n);
    for (int kt = s.k_begin; kt < s.k_end; ++kt) {
      mbarrier_wait(ring.empty(to.stage), to.phase ^ 1);  // a fresh barrier counts as released
      for (int half = 0; half < 2; ++half) {
        mbarrier_wait(staging.full(from.stage), from.phase);
#pragma unroll
        for (int c = 0; c < 4; ++c) {  // op(A)'s and op(B)'s chunks side by side: two independent chains
          float xa[8], xb[8];
          read_k_chunk(staging.a(from.stage), layout.a_rows_contiguous, Tile::bm, thread, c, xa);
          read_k_chunk(staging.b(from.stage), layout.b_rows_contiguous, Tile::bn, thread, c, xb);
          scale_a.apply(xa);
          scale_b.apply(xb);
          split_k_chunk(xa, ring.a(to.stage, 0), ring.a(to.stage, 1), thread, 4 * half + c);
          split_k_chunk(xb, ring.b(to.stage, 0), ring.b(to.stage, 1), thread, 4 * half + c);
        }
        named_barrier_sync<1, 128>();  // every thread has read the slot
        if (thread == 0 && !load.done()) {
          load_half_tile(staging, from.stage, a, b, layout, load);
          load.advance();
        }
        from.advance<slots>();
      }
      fence_proxy_async_shared();
      mbarrier_arrive(ring.full(to.stage));
      to.advance<Tile::stages>();
    }
  }
}

// The kernel: the split in the producer warpgroup, the consumers as in
// tma_wgmma_gemm_kernel. EmulatedFP32's FP16 path only (fp16_scaled).
template <class Policy, class Tile>
__global__ void __launch_bounds__(Tile::threads, 1)
    tma_wgmma_split_gemm_kernel(const __grid_constant__ CUtensorMap a_source,
                                const __grid_constant__ CUtensorMap b_source, const SourceLayout layout,
                                const FusedGemmParams p, const StreamKArgs sk) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if (!path_selected(p.path_word, p.path)) return;
  extern __shared__ unsigned char smem_raw[];
  const SourceStaging<Tile> staging{aligned_smem(smem_raw)};
  const StageRing<Tile> ring = staging.pieces();
  const int warpgroup = threadIdx.x / 128, thread = threadIdx.x % 128;
  const TileSchedule<Tile> schedule(p, sk.tail, 0);
  const int k_tiles = static_cast<int>(p.k_pad / Tile::bk);

  if (threadIdx.x == 0) {
    for (int s = 0; s < Tile::stages; ++s) {
      mbarrier_init(ring.full(s), 128);                    // every producer thread, after its fence
      mbarrier_init(ring.empty(s), 4 * Tile::consumers);   // per consumer warp
    }
    for (int s = 0; s < SourceStaging<Tile>::slots; ++s) mbarrier_init(staging.full(s), 1);  // arrive_expect_tx
    mbarrier_init_fence();
  }
  if (threadIdx.x == 32) {
    tma_prefetch_descriptor(&a_source);
    tma_prefetch_descriptor(&b_source);
  }
  __syncthreads();

  if (warpgroup == 0) {
    setmaxnreg_dec<SourceStaging<Tile>::producer_registers>();
    splitting_producer(staging, &a_source, &b_source, layout, schedule, p, k_tiles, thread);
    return;
  }
  setmaxnreg_inc<SourceStaging<Tile>::consumer_registers>();
  consume<Policy, Tile>(ring, schedule, p, sk, k_tiles, warpgroup - 1, thread);
#endif
}

}  // namespace egemm::cuda::hopper
