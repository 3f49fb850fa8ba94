// The split kernels' common pieces: a 32-row x 128-k panel of the operand
// staged in shared memory (coalesced whichever dimension is contiguous), one
// thread per (row, eighth of the panel) reading it back, the per-row range
// statistics, the verdict each row contributes to EmulatedFP32's path
// choice, the row scaling and the piece writers (split_kernels.cu builds its
// kernels from them).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/sm80/mma_sm80.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/numerics/row_exponent.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::cuda::split_panel {

inline constexpr int panel_rows = split_panel_rows;
inline constexpr int panel_k = split_panel_k;
inline constexpr int split_threads = 256;
inline constexpr int threads_per_row = 8;
inline constexpr int per_chunk = 4;                            // consecutive k a thread holds per 32-wide chunk
inline constexpr int chunks = panel_k / (threads_per_row * per_chunk);  // 4
inline constexpr int per_thread = chunks * per_chunk;          // 16 values of one row
static_assert(panel_rows * threads_per_row == split_threads, "one thread per (row, eighth of the panel)");
static_assert(panel_rows * panel_k == per_thread * split_threads, "every thread loads per_thread values");

using Panel = float[panel_rows][panel_k + 1];  // +1: column walks are conflict-free too

// Which panel entries thread t loads: its i-th is (row + i * row_step,
// k + i * k_step). Consecutive lanes walk the operand's contiguous dimension,
// so each warp reads 128 contiguous bytes: (t % 32, t / 32 + 8 i) when rows
// are contiguous, (t / 128 + 2 i, t % 128) when k is.
struct PanelWalk {
  int row, k, row_step, k_step;
  __device__ __forceinline__ explicit PanelWalk(const OperandRows& src) {
    const bool rows_contiguous = src.row_stride == 1;
    const int t = static_cast<int>(threadIdx.x);
    row = rows_contiguous ? t % panel_rows : t / panel_k;
    k = rows_contiguous ? t / panel_rows : t % panel_k;
    row_step = rows_contiguous ? 0 : split_threads / panel_k;
    k_step = rows_contiguous ? split_threads / panel_rows : 0;
  }
  // One pointer and one stride per thread (per-element 64-bit index
  // arithmetic made the passes issue-bound).
  __device__ __forceinline__ const float* first(const OperandRows& src, index_t r0, index_t p0) const {
    return src.base + (r0 + row) * src.row_stride + (p0 + k) * src.depth_stride;
  }
  __device__ __forceinline__ index_t step(const OperandRows& src) const {
    return row_step * src.row_stride + k_step * src.depth_stride;
  }
};

// Panel (r, p) = src(r0 + r, p0 + p), 0 outside src; all loads in registers
// before the first shared-memory store (16 in flight per thread).
__device__ __forceinline__ void load_panel(const OperandRows& src, index_t r0, index_t p0, Panel& panel) {
  const PanelWalk w(src);
  const float* first = w.first(src, r0, p0);
  const index_t step = w.step(src);
  float v[per_thread];
  if (r0 + panel_rows <= src.rows && p0 + panel_k <= src.depth) {  // interior: no bounds to check
#pragma unroll
    for (int i = 0; i < per_thread; ++i) v[i] = __ldg(first + i * step);
  } else {
    const index_t rows_left = src.rows - r0, depth_left = src.depth - p0;
#pragma unroll
    for (int i = 0; i < per_thread; ++i)
      v[i] = w.row + i * w.row_step < rows_left && w.k + i * w.k_step < depth_left ? __ldg(first + i * step) : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < per_thread; ++i) panel[w.row + i * w.row_step][w.k + i * w.k_step] = v[i];
}

// Where a thread of a panel-grid launch works: its block's panel (blockIdx.x
// the row panel, blockIdx.y the k panel) and its row and eighth of that panel.
// (EmulatedFP32's split kernels keep these as their own locals: under their
// 48-register bound the struct's live fields made ptxas spill 8 bytes.)
struct PanelPlace {
  index_t r0, p0;  // the panel's first row and depth
  int r, q;        // the thread's row in the panel, and which eighth of it
  index_t row;     // r0 + r
  // The panel at (r0, p0).
  __device__ __forceinline__ PanelPlace(index_t first_row, index_t first_depth)
      : r0(first_row), p0(first_depth), r(static_cast<int>(threadIdx.x) / threads_per_row),
        q(static_cast<int>(threadIdx.x) % threads_per_row), row(r0 + r) {}
  // The block's panel of a panel-grid launch.
  __device__ __forceinline__ PanelPlace()
      : PanelPlace(static_cast<index_t>(blockIdx.x) * panel_rows, static_cast<index_t>(blockIdx.y) * panel_k) {}
  // Whether the panel lies in dst's padded extent (the grid spans the larger operand).
  __device__ __forceinline__ bool inside(const SplitOperand& dst) const { return r0 < dst.rows_pad && p0 < dst.depth_pad; }
};

// The guessed exponents of a panel's rows (numerics/row_exponent.hpp) from
// their first exponent_guess_values values, worked out by every block of the
// row panel alike (the prefix comes from L2 after the first): no launch of
// its own. Loaded coalesced as the panel is; each row's 8 lanes then reduce
// 4 values each.
inline constexpr int guess_k = numerics::exponent_guess_values;
static_assert(guess_k == threads_per_row * per_chunk, "a row's 8 lanes hold its prefix");
using PrefixPanel = float[panel_rows][guess_k + 1];

// A row's guessed exponent and its outlier candidates' threshold (as bits;
// numerics/outliers.hpp), both from its first exponent_guess_values values.
struct RowGuess {
  int exponent;
  std::uint32_t threshold_bits;
};

__device__ __forceinline__ RowGuess guessed_row_exponent(const OperandRows& src, index_t r0, PrefixPanel& prefix) {
  const bool rows_contiguous = src.row_stride == 1;
  const int t = static_cast<int>(threadIdx.x);
  constexpr int per_load = panel_rows * guess_k / split_threads;  // 4
  const index_t values = min(src.depth, static_cast<index_t>(guess_k));
#pragma unroll
  for (int i = 0; i < per_load; ++i) {
    const int row = rows_contiguous ? t % panel_rows : t / guess_k + i * (split_threads / guess_k);
    const int k = rows_contiguous ? t / panel_rows + i * (split_threads / panel_rows) : t % guess_k;
    float v = 0.0f;
    if (r0 + row < src.rows && k < values) v = fabsf(__ldg(src.base + (r0 + row) * src.row_stride + k * src.depth_stride));
    prefix[row][k] = numerics::is_finite(v) ? v : 0.0f;
  }
  __syncthreads();
  const int r = t / threads_per_row, q = t % threads_per_row;
  numerics::TopTwo top;
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) top.add(prefix[r][q * per_chunk + c]);
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) {
    numerics::TopTwo other;
    other.first = __shfl_xor_sync(0xffffffffu, top.first, lanes);
    other.second = __shfl_xor_sync(0xffffffffu, top.second, lanes);
    top.merge(other);
  }
  if (r0 + r >= src.rows) return {0, 0x7f800000u};
  return {numerics::guessed_exponent(top.first), numerics::float_bits(numerics::outlier_threshold(top.second))};
}

// The panel column of a thread's value (chunk g, element c): lanes of a row
// take interleaved groups of 4, so a warp's 4 rows x 8 lanes hit 32 banks.
__device__ __forceinline__ int panel_column(int q, int g, int c) { return g * threads_per_row * per_chunk + q * per_chunk + c; }

// A row's range as far as one thread (or, reduced, the row) has seen it:
// largest finite |x| and smallest nonzero finite |x| (as ~bits, so that max()
// finds it; |x| bits order like |x|), and whether an Inf or NaN was met.
struct RowStats {
  std::uint32_t max_bits = 0, min_inv = 0, nonfinite = 0;

  // Without a branch (one per value, with its reconvergence, had made the
  // split issue-bound): an Inf or NaN adds 0 to both maxima, a zero adds 0
  // to min_inv.
  __device__ __forceinline__ void add(float x) {
    const std::uint32_t abs_bits = numerics::float_bits(x) & 0x7fffffffu;
    const bool finite = numerics::is_finite(x);
    nonfinite |= finite ? 0u : 1u;
    max_bits = max(max_bits, finite ? abs_bits : 0u);
    min_inv = max(min_inv, finite && abs_bits != 0 ? ~abs_bits : 0u);
  }
  // add() for EmulatedFP32's split, whose largest magnitude is its bulk's:
  // those below the row's outlier threshold (as bits, at most +Inf's, so
  // below it means finite); `candidates` is set where a finite value reaches it.
  __device__ __forceinline__ void add_below(float x, std::uint32_t threshold_bits, bool& candidates) {
    const std::uint32_t abs_bits = numerics::float_bits(x) & 0x7fffffffu;
    const bool finite = numerics::is_finite(x), below = abs_bits < threshold_bits;
    nonfinite |= finite ? 0u : 1u;
    max_bits = max(max_bits, below ? abs_bits : 0u);
    min_inv = max(min_inv, finite && abs_bits != 0 ? ~abs_bits : 0u);
    candidates = candidates || (finite && !below);
  }
  __device__ __forceinline__ void merge(const RowStats& o) {
    max_bits = max(max_bits, o.max_bits);
    min_inv = max(min_inv, o.min_inv);
    nonfinite |= o.nonfinite;
  }
  // Over the threads_per_row consecutive lanes that share a row.
  __device__ __forceinline__ void reduce_over_row_lanes() {
#pragma unroll
    for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) {
      max_bits = max(max_bits, __shfl_xor_sync(0xffffffffu, max_bits, lanes));
      min_inv = max(min_inv, __shfl_xor_sync(0xffffffffu, min_inv, lanes));
      nonfinite |= __shfl_xor_sync(0xffffffffu, nonfinite, lanes);
    }
  }
  __device__ __forceinline__ RowRange range() const {
    RowRange r;
    r.max_abs = numerics::bits_to_float(max_bits);
    r.min_abs_nonzero = min_inv == 0 ? 0.0f : numerics::bits_to_float(~min_inv);
    return r;
  }
};

// Row `row` holds Inf or NaN: its flag (the special-value pass recomputes its entries) and the call's.
__device__ __forceinline__ void flag_nonfinite_row(const SplitOperand& dst, index_t row, std::uint32_t* any_nonfinite) {
  atomicOr(dst.nonfinite + row, row_nonfinite);
  atomicOr(any_nonfinite, 1u);
}

// Row `row`'s part in EmulatedFP32's path choice: a row the scaled FP16
// split cannot hold (`pieces`: the range its pieces carry, its bulk's where
// it takes the outlier route) is counted (and listed, up to
// max_recomputed_rows); one beyond TF32's range (`range`: all of it) rules
// the TF32 path out.
__device__ __forceinline__ void record_row_verdict(const SplitOperand& op, index_t row, RowRange range, RowRange pieces,
                                                   std::uint32_t* path_word) {
  if (!fits_fp16_scaled(pieces)) {
    const std::uint32_t slot = atomicAdd(op.wide_count, 1u);
    if (slot < static_cast<std::uint32_t>(max_recomputed_rows(op.rows))) op.wide_list[slot] = static_cast<std::uint32_t>(row);
  }
  if (!fits_tf32(range)) atomicOr(path_word, path_not_tf32);
}

// Two floats to two FP16 in one instruction (cvt.{rn,rz}.f16x2.f32, IEEE
// rounding per element as the scalar conversion: subnormal halves, overflow
// to Inf under RN and to 65504 under RZ); `low` lands in the low 16 bits.
template <numerics::HalfRounding Rounding>
__device__ __forceinline__ std::uint32_t half_pair(float low, float high) {
  std::uint32_t d;
  if constexpr (Rounding == numerics::HalfRounding::toward_zero)
    asm("cvt.rz.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(high), "f"(low));
  else
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(high), "f"(low));
  return d;
}

__device__ __forceinline__ float half_low(std::uint32_t pair) { return __half2float(__ushort_as_half(static_cast<unsigned short>(pair))); }
__device__ __forceinline__ float half_high(std::uint32_t pair) { return __half2float(__ushort_as_half(static_cast<unsigned short>(pair >> 16))); }

// numerics::split_to_half of two finite values at once, the same bits: hi
// by Rule's rounding, lo = RN(x - hi) (times 2^11 for round_scaled_lo), and
// lo = 0 where hi overflowed to Inf. About 6 instructions a value where the
// general per-value code (NaN payloads, Inf) takes ~40 and branches.
template <SplitRule Rule>
__device__ __forceinline__ void half_pieces_of_finite_pair(float a, float b, std::uint32_t& hi, std::uint32_t& lo) {
  hi = half_pair<Rule == SplitRule::truncate ? numerics::HalfRounding::toward_zero : numerics::HalfRounding::nearest_even>(a, b);
  if constexpr (Rule == SplitRule::round_hi_only) {
    lo = 0;
  } else {
    const float scale = Rule == SplitRule::round_scaled_lo ? 2048.0f : 1.0f;  // exact power-of-two scaling
    const std::uint32_t rest = half_pair<numerics::HalfRounding::nearest_even>((a - half_low(hi)) * scale, (b - half_high(hi)) * scale);
    const std::uint32_t infinite_hi = __vcmpeq2(hi & 0x7fff7fffu, 0x7c007c00u);  // 0xffff per Inf half
    lo = rest & ~infinite_hi;
  }
}

// 4 consecutive values' FP16 pieces, packed in pairs.
struct HalfQuad {
  std::uint32_t hi[2] = {0, 0}, lo[2] = {0, 0};
};

// The general path (any NaN or Inf among the 4) out of line, so that the hot
// loop stays small in the instruction cache; values in, pieces out by value
// (an array or reference would put the caller's values in local memory).
template <SplitRule Rule>
__device__ __noinline__ HalfQuad half_pieces_general(float x0, float x1, float x2, float x3) {
  const float x[per_chunk] = {x0, x1, x2, x3};
  HalfQuad q;
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const numerics::HalfPieces pieces = numerics::split_to_half(x[c], Rule);
    q.hi[c / 2] |= static_cast<std::uint32_t>(pieces.hi) << (16 * (c % 2));
    q.lo[c / 2] |= static_cast<std::uint32_t>(pieces.lo) << (16 * (c % 2));
  }
  return q;
}

// A quad's pieces: one 8-byte store per piece.
template <SplitRule Rule>
__device__ __forceinline__ void store_half_quad(const HalfQuad& q, const SplitOperand& dst, index_t offset) {
  *reinterpret_cast<uint2*>(static_cast<std::uint16_t*>(dst.piece[0]) + offset) = make_uint2(q.hi[0], q.hi[1]);
  if constexpr (Rule != SplitRule::round_hi_only)
    *reinterpret_cast<uint2*>(static_cast<std::uint16_t*>(dst.piece[1]) + offset) = make_uint2(q.lo[0], q.lo[1]);
}

// 4 consecutive finite values of one row as FP16 pieces.
template <SplitRule Rule>
__device__ __forceinline__ void write_finite_half_pieces(const float* x, const SplitOperand& dst, index_t offset) {
  HalfQuad q;
  half_pieces_of_finite_pair<Rule>(x[0], x[1], q.hi[0], q.lo[0]);
  half_pieces_of_finite_pair<Rule>(x[2], x[3], q.hi[1], q.lo[1]);
  store_half_quad<Rule>(q, dst, offset);
}

// 4 consecutive values of one row as FP16 pieces, any of them perhaps Inf or NaN.
template <SplitRule Rule>
__device__ __forceinline__ void write_half_pieces(const float* x, const SplitOperand& dst, index_t offset) {
  const bool finite = numerics::is_finite(x[0]) && numerics::is_finite(x[1]) && numerics::is_finite(x[2]) &&
                      numerics::is_finite(x[3]);
  if (finite)
    write_finite_half_pieces<Rule>(x, dst, offset);
  else
    store_half_quad<Rule>(half_pieces_general<Rule>(x[0], x[1], x[2], x[3]), dst, offset);
}

// 4 consecutive values of one row as TF32 big/small pieces: one 16-byte store per piece.
__device__ __forceinline__ void write_tf32_pieces(const float* x, const SplitOperand& dst, index_t offset) {
  float big[per_chunk], small[per_chunk];
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const numerics::Tf32Pieces pieces = numerics::split_to_tf32(x[c]);
    big[c] = pieces.big;
    small[c] = pieces.small;
  }
  *reinterpret_cast<float4*>(static_cast<float*>(dst.piece[0]) + offset) = make_float4(big[0], big[1], big[2], big[3]);
  *reinterpret_cast<float4*>(static_cast<float*>(dst.piece[1]) + offset) =
      make_float4(small[0], small[1], small[2], small[3]);
}

// A thread's 16 values of panel row r.
__device__ __forceinline__ void read_row_values(const Panel& panel, int r, int q, float (&x)[per_thread]) {
#pragma unroll
  for (int v = 0; v < per_thread; ++v) x[v] = panel[r][panel_column(q, v / per_chunk, v % per_chunk)];
}

// A panel wholly inside src whose contiguous dimension can be read 16 bytes
// at a time (the base and the other stride multiples of 4 floats; a
// panel's first row and depth are multiples of 32).
__device__ __forceinline__ bool panel_reads_in_quads(const OperandRows& src, index_t r0, index_t p0) {
  const bool rows_contiguous = src.row_stride == 1, k_contiguous = src.depth_stride == 1;
  const index_t other_stride = rows_contiguous ? src.depth_stride : src.row_stride;
  return (rows_contiguous || k_contiguous) && other_stride % 4 == 0 &&
         reinterpret_cast<std::uintptr_t>(src.base) % 16 == 0 && r0 + panel_rows <= src.rows &&
         p0 + panel_k <= src.depth;
}

// The thread's 16 values of its panel row (read_row_values' order), read in
// 16-byte quads where panel_reads_in_quads: with k contiguous straight into
// registers (a quad is 4 of the thread's consecutive values), with rows
// contiguous through `panel` (a quad is 4 rows of one depth; 8 lanes a
// 128-byte column, conflict-free stores); else by load_panel. Block-
// uniform branches; `panel` is free again when it returns.
__device__ __forceinline__ void load_row_values(const OperandRows& src, index_t r0, index_t p0, int r, int q,
                                                Panel& panel, float (&x)[per_thread]) {
  if (!panel_reads_in_quads(src, r0, p0)) {
    load_panel(src, r0, p0, panel);
    __syncthreads();
    read_row_values(panel, r, q, x);
  } else if (src.depth_stride == 1) {
    const float* row = src.base + (r0 + r) * src.row_stride + p0;
#pragma unroll
    for (int g = 0; g < chunks; ++g) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(row + panel_column(q, g, 0)));
      x[g * per_chunk] = v.x, x[g * per_chunk + 1] = v.y, x[g * per_chunk + 2] = v.z, x[g * per_chunk + 3] = v.w;
    }
    return;  // the panel was not used
  } else {
    const int t = static_cast<int>(threadIdx.x), quad_row = 4 * (t % 8);
    const float* column = src.base + r0 + quad_row + (p0 + t / 8) * src.depth_stride;
    constexpr int columns_per_pass = split_threads / 8;  // 32
    float4 v[panel_k / columns_per_pass];
#pragma unroll
    for (int i = 0; i < panel_k / columns_per_pass; ++i)
      v[i] = __ldg(reinterpret_cast<const float4*>(column + i * columns_per_pass * src.depth_stride));
#pragma unroll
    for (int i = 0; i < panel_k / columns_per_pass; ++i) {
      const int k = t / 8 + i * columns_per_pass;
      panel[quad_row][k] = v[i].x, panel[quad_row + 1][k] = v[i].y;
      panel[quad_row + 2][k] = v[i].z, panel[quad_row + 3][k] = v[i].w;
    }
    __syncthreads();
    read_row_values(panel, r, q, x);
  }
  __syncthreads();  // every thread has its values: the panel may be written again
}

// The values scaled by 2^-e (NaN passes unscaled, payload kept, as the
// host's ldexpf does; CUDA's returns a canonical NaN). The power of two is
// worked out once per row where one normal factor does it (every row but
// those of magnitude below 2^-112), as scale_by_pow2 would. `all_finite`:
// the caller knows there is no NaN among them, so no test per value.
__device__ __forceinline__ void scale_row_values(float (&x)[per_thread], int e, bool all_finite = false) {
  if (e == 0) return;
  if (numerics::is_normal_pow2(-e)) {
    const float scale = numerics::pow2_normal(-e);
    if (all_finite) {
#pragma unroll
      for (int v = 0; v < per_thread; ++v) x[v] *= scale;
    } else {
#pragma unroll
      for (int v = 0; v < per_thread; ++v)
        if (numerics::is_finite(x[v])) x[v] *= scale;
    }
  } else {
#pragma unroll 1
    for (int v = 0; v < per_thread; ++v)
      if (numerics::is_finite(x[v])) x[v] = numerics::scale_by_pow2(x[v], -e);
  }
}

// A thread's 16 values of row `row` (panel at depth p0) into dst's pieces:
// TF32 when `tf32`, else FP16 by Rule; nothing past the padded depth (a
// multiple of 64, not of the panel). `all_finite` (the caller knows it from
// the row's statistics) skips the per-quad Inf/NaN test: each form's loop
// is chosen once, not per quad (a branch per quad, with its reconvergence,
// had made the split issue-bound).
template <SplitRule Rule>
__device__ __forceinline__ void write_row_values(const float (&x)[per_thread], const SplitOperand& dst, index_t row,
                                                 index_t p0, int q, bool tf32, bool all_finite = false) {
  auto each_quad = [&](auto write) {
#pragma unroll
    for (int g = 0; g < chunks; ++g) {
      const index_t p = p0 + panel_column(q, g, 0);
      if (p >= dst.depth_pad) break;
      write(x + g * per_chunk, row * dst.depth_pad + p);
    }
  };
  if (tf32) {
    each_quad([&](const float* v, index_t offset) { write_tf32_pieces(v, dst, offset); });
  } else if constexpr (Rule != SplitRule::tf32) {
    if (all_finite)
      each_quad([&](const float* v, index_t offset) { write_finite_half_pieces<Rule>(v, dst, offset); });
    else
      each_quad([&](const float* v, index_t offset) { write_half_pieces<Rule>(v, dst, offset); });
  }
}

}  // namespace egemm::cuda::split_panel
