// The split on CUDA cores. Every kernel stages 32-row x 128-k panels through
// shared memory so global reads are coalesced whichever dimension of the
// operand is contiguous (transposes folded in), with 16 loads in flight per
// thread (a 32x32 tile per block kept only 4, and the passes ran at half the
// memory bandwidth), and calls the same bit-exact numerics as the host oracle.
// op(A) and op(B)^T go through each kernel in one launch (blockIdx.z, or the
// row or item index, picks the operand): fewer launches, one tail.
//
// EmulatedFP32 scales each row by a power of two that depends on the whole
// row; a pass reading both operands only to learn it cost a third of the
// split's DRAM traffic. Its split instead guesses each row's exponent from
// the row's first values (numerics/row_exponent.hpp; every block of a row
// panel works out the same guess), splits with it and gathers the row's
// statistics as it goes; the path choice keeps every guess that holds its
// row, and a second, usually short, launch splits the other rows again and
// zeroes the outliers' pieces of routed rows (resplit_plan.hpp). On
// data too wide for the FP16 path the split learns so from the first blocks'
// panels and the rest write TF32 pieces at once; the second launch redoes the
// panels that went out in FP16 before it knew, and the TF32 ones their FP16
// bytes landed on (the two forms share the buffers).
#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/device_facts.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/split/resplit_plan.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "backends/cuda/split/split_panel.cuh"
#include "egemm/errors.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/numerics/row_exponent.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

// The second split's row masks are indexed by split panel and their bits by
// the plan's item rows: one and the same 32 rows, a block's rows of threads.
static_assert(resplit::item_rows == panel_rows && split_threads / threads_per_row == resplit::item_rows,
              "a second-split item is a split panel's rows, one row of threads each");

constexpr int path_choice_threads = 256;

// One or two operands of a launch. The kernels pick theirs by a branch to
// constant indices: an index computed at run time would copy the parameters
// to local memory.
struct OperandPair {
  OperandRows src[2];
  SplitOperand dst[2];
};

// A row whose panel alone spans more than the FP16 split holds is wide,
// whatever the rest of it holds. Once more rows of an operand are known wide
// than the FP16 path recomputes, that path is out (the path choice would
// rule the same): the word says so at once, for the blocks still to start.
__device__ __forceinline__ void mark_known_wide(const SplitOperand& dst, index_t row, std::uint32_t* path_word) {
  if (atomicOr(dst.known_wide + row, 1u) != 0) return;
  if (atomicAdd(dst.known_wide_count, 1u) == static_cast<std::uint32_t>(max_recomputed_rows(dst.rows)))
    atomicOr(path_word, path_not_fp16_scaled);
}

// The candidates among a thread's 16 values of panel row r (read again from
// the staged panel, after the thread's pieces are written, so that little
// else is live): counted on the row's state word, which hands out their
// slots (the first outlier_slots of the row keep theirs), and their largest
// on the row's word for it. Returns the panel row's count and largest (over
// its lanes). Rows with candidates are rare; every lane of the warp calls it
// (shuffles). The words come as pointers: with the operand's parameters by
// reference the walking split kept a stack frame.
struct PanelCandidates {
  std::uint32_t count = 0, max_bits = 0;
};
__device__ __forceinline__ PanelCandidates record_candidates(const Panel& panel, int r, int q, index_t row, index_t p0,
                                                             std::uint32_t threshold_bits, bool counted,
                                                             std::uint32_t* state_words, std::uint32_t* max_words,
                                                             uint2* slots) {
  PanelCandidates c;
#pragma unroll
  for (int v = 0; v < per_thread; ++v) {
    const float x = panel[r][panel_column(q, v / per_chunk, v % per_chunk)];
    if (counted && numerics::is_outlier_candidate(x, threshold_bits)) {
      ++c.count;
      c.max_bits = max(c.max_bits, numerics::float_bits(x) & 0x7fffffffu);
    }
  }
  if (c.count != 0) {
    std::uint32_t slot = atomicAdd(state_words + row, c.count);
    atomicMax(max_words + row, c.max_bits);
#pragma unroll 1
    for (int v = 0; v < per_thread && slot < static_cast<std::uint32_t>(numerics::outlier_slots); ++v) {
      const int column = panel_column(q, v / per_chunk, v % per_chunk);
      const float x = panel[r][column];
      if (!numerics::is_outlier_candidate(x, threshold_bits)) continue;
      slots[row * numerics::outlier_slots + slot++] = make_uint2(static_cast<std::uint32_t>(p0 + column), numerics::float_bits(x));
    }
  }
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) {
    c.count += __shfl_xor_sync(0xffffffffu, c.count, lanes);
    c.max_bits = max(c.max_bits, __shfl_xor_sync(0xffffffffu, c.max_bits, lanes));
  }
  return c;
}

// A row with more candidates in a panel than the outlier route takes, which
// does not fit the FP16 split with them (`stats`: the panel row's bulk,
// reduced), is known wide.
__device__ __forceinline__ void record_candidates_verdict(PanelCandidates c, RowStats stats, const SplitOperand& dst,
                                                          index_t row, std::uint32_t* path_word) {
  if (c.count <= static_cast<std::uint32_t>(numerics::max_outliers_per_row(dst.depth))) return;
  RowRange full = stats.range();
  full.max_abs = numerics::bits_to_float(max(stats.max_bits, c.max_bits));
  if (!fits_fp16_scaled(full)) mark_known_wide(dst, row, path_word);
}

// A panel row's statistics, reduced over its lanes, into the row's words
// (EmulatedFP32's maxima are its rows' bulks': record_candidates adds the
// rest). Returns them reduced.
__device__ __forceinline__ RowStats record_row_stats(RowStats stats, const SplitOperand& dst, index_t row, int q,
                                                     std::uint32_t* any_nonfinite, std::uint32_t* path_word) {
  stats.reduce_over_row_lanes();
  if (q != 0 || row >= dst.rows) return stats;
  if (stats.max_bits != 0) {
    atomicMax(dst.max_abs_bits + row, stats.max_bits);
    atomicMax(dst.min_abs_inv_bits + row, stats.min_inv);
    if (!fits_fp16_scaled(stats.range())) mark_known_wide(dst, row, path_word);
  } else if (stats.min_inv != 0) {  // candidates only: the row's smallest still counts
    atomicMax(dst.min_abs_inv_bits + row, stats.min_inv);
  }
  if (stats.nonfinite) flag_nonfinite_row(dst, row, any_nonfinite);
  return stats;
}

// Flags rows holding Inf or NaN from the values a thread holds (8 lanes per
// row); returns whether the row's values in this panel are all finite.
__device__ bool record_nonfinite(const float (&x)[per_thread], index_t row, index_t rows, const SplitOperand& dst,
                                 std::uint32_t* any_nonfinite) {
  std::uint32_t bad = 0;
#pragma unroll
  for (int c = 0; c < per_thread; ++c) bad |= numerics::is_finite(x[c]) ? 0u : 1u;
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) bad |= __shfl_xor_sync(0xffffffffu, bad, lanes);
  if (bad && threadIdx.x % threads_per_row == 0 && row < rows) flag_nonfinite_row(dst, row, any_nonfinite);
  return bad == 0;
}

// What a split kernel does besides writing Rule's pieces.
enum class PanelSplit {
  plain,              // nothing
  records_nonfinite,  // flags Inf/NaN rows (policies without row scaling)
  guessed_scaling,    // EmulatedFP32: scales each row by its guessed exponent, gathers its statistics
};

// Panel (x, y) of operand z: rows from x * panel_rows, depth from y * panel_k.
struct PanelIndex {
  unsigned x, y, z;
};

template <SplitRule Rule, PanelSplit Mode>
__device__ __forceinline__ void split_panel_of(const OperandRows& src, const SplitOperand& dst, PanelIndex at,
                                               std::uint32_t* any_nonfinite, std::uint32_t* path_word) {
  const index_t r0 = static_cast<index_t>(at.x) * panel_rows, p0 = static_cast<index_t>(at.y) * panel_k;
  if (r0 >= dst.rows_pad || p0 >= dst.depth_pad) return;  // the grid spans the larger operand
  __shared__ Panel panel;
  load_panel(src, r0, p0, panel);
  __syncthreads();

  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  const index_t row = r0 + r;
  float x[per_thread];
  read_row_values(panel, r, q, x);
  bool tf32 = Rule == SplitRule::tf32;
  bool all_finite = false;  // the thread's 16 values, where the mode learns it on the way
  if constexpr (Mode == PanelSplit::guessed_scaling) {
    __shared__ PrefixPanel prefix;
    const RowGuess guess = guessed_row_exponent(src, r0, prefix);
    const int e = guess.exponent;
    if (at.y == 0 && q == 0) {
      dst.exponent[row] = e;
      dst.outlier_threshold_bits[row] = guess.threshold_bits;
    }
    RowStats stats;
    bool candidates = false;
#pragma unroll
    for (int v = 0; v < per_thread; ++v) stats.add_below(x[v], guess.threshold_bits, candidates);
    all_finite = stats.nonfinite == 0;
    stats = record_row_stats(stats, dst, row, q, any_nonfinite, path_word);
    // Whether the FP16 path is already out, this block's own rows counted:
    // one read for the block, so that its pieces are all of one form.
    __shared__ bool in_tf32;
    __syncthreads();
    if (threadIdx.x == 0) in_tf32 = (__ldcg(path_word) & path_not_fp16_scaled) != 0;
    __syncthreads();
    tf32 = in_tf32;
    if (!tf32) scale_row_values(x, e, all_finite);
    if (threadIdx.x == 0) dst.panel_in_tf32[at.x * split_k_panels(dst) + at.y] = tf32 ? 1u : 0u;
    write_row_values<Rule>(x, dst, row, p0, q, tf32, all_finite);
    if (__any_sync(0xffffffffu, candidates)) {
      const PanelCandidates c = record_candidates(panel, r, q, row, p0, guess.threshold_bits, row < dst.rows,
                                                  dst.outlier_state, dst.outlier_max_bits, dst.outlier_slots);
      if (q == 0 && row < dst.rows) record_candidates_verdict(c, stats, dst, row, path_word);
    }
    return;
  } else {
    if constexpr (Mode == PanelSplit::records_nonfinite) all_finite = record_nonfinite(x, row, src.rows, dst, any_nonfinite);
    if (at.y == 0 && q == 0) dst.exponent[row] = 0;
  }
  write_row_values<Rule>(x, dst, row, p0, q, tf32, all_finite);
}

// `src` with its strides passed through an empty asm: in a loop over panels
// the compiler would otherwise keep the panel walk's 16 offsets live across
// iterations (128 registers, or spills under the occupancy's cap).
__device__ __forceinline__ OperandRows with_opaque_strides(OperandRows src) {
  asm volatile("" : "+l"(src.row_stride), "+l"(src.depth_stride));
  return src;
}

template <SplitRule Rule, PanelSplit Mode, bool InLoop = false>
__device__ __forceinline__ void split_panel(const OperandPair& ops, PanelIndex at, std::uint32_t* any_nonfinite,
                                            std::uint32_t* path_word) {
  const auto src = [&](int z) { return InLoop ? with_opaque_strides(ops.src[z]) : ops.src[z]; };
  if (at.z == 0)
    split_panel_of<Rule, Mode>(src(0), ops.dst[0], at, any_nonfinite, path_word);
  else
    split_panel_of<Rule, Mode>(src(1), ops.dst[1], at, any_nonfinite, path_word);
}

// A block a panel.
template <SplitRule Rule, PanelSplit Mode>
__global__ void __launch_bounds__(split_threads, 5)
    split_kernel(const OperandPair ops, std::uint32_t* any_nonfinite, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!route_taken(path_word, false)) return;  // NormwiseFP32 took the digits
  split_panel<Rule, Mode>(ops, PanelIndex{blockIdx.x, blockIdx.y, blockIdx.z}, any_nonfinite, path_word);
}

// The same panels walked by a grid the SMs hold at once, in the order the
// one-a-panel grid starts them (x fastest): for NormwiseFP32's fallback,
// which usually leaves at once, and a grid of one block a panel (32768 at
// 8192^3) took ~40 us only to start and leave its blocks.
template <SplitRule Rule, PanelSplit Mode>
__global__ void __launch_bounds__(split_threads, 4)  // 5 a SM (48 registers): the loop spilled
    split_walk_kernel(const OperandPair ops, const dim3 panels, std::uint32_t* any_nonfinite, std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!route_taken(path_word, false)) return;  // NormwiseFP32 took the digits
  const unsigned per_operand = panels.x * panels.y;
#pragma unroll 1
  for (unsigned i = blockIdx.x; i < per_operand * panels.z; i += gridDim.x) {
    __syncthreads();  // the previous panel's shared memory is read
    split_panel<Rule, Mode, true>(ops, PanelIndex{i % panels.x, i % per_operand / panels.x, i / per_operand},
                                  any_nonfinite, path_word);
  }
}

// A routed row's slots in depth order (the host oracle adds its outliers'
// products in that order). At most outlier_slots of them.
__device__ __noinline__ void sort_outlier_slots(uint2* slots, std::uint32_t count) {
  for (std::uint32_t s = 1; s < count; ++s) {
    const uint2 v = slots[s];
    std::uint32_t t = s;
    for (; t > 0 && slots[t - 1].x > v.x; --t) slots[t] = slots[t - 1];
    slots[t] = v;
  }
}

// Row `row` of `op`: its range verdict from the statistics the split
// gathered, and its exponent settled: a guess that does not hold the row
// gives way to the exact exponent, and the row is listed for the second
// split. A row that takes the outlier route (egemm::routes_outliers) is
// judged and scaled by its bulk and marked; its outliers leave its pieces:
// the whole row split again where its guess failed, else only their pieces
// zeroed (listed from the back of resplit_list; resplit_plan.hpp).
__device__ __forceinline__ void settle_row(const SplitOperand& op, index_t row, std::uint32_t* path_word) {
  if (row >= op.rows) return;
  RowStats stats;
  stats.max_bits = op.max_abs_bits[row];
  stats.min_inv = op.min_abs_inv_bits[row];
  const RowRange bulk = stats.range();
  const std::uint32_t candidates = op.outlier_state[row];
  RowRange range = bulk;
  if (candidates != 0) range.max_abs = fmaxf(bulk.max_abs, numerics::bits_to_float(op.outlier_max_bits[row]));
  const bool routed = candidates != 0 && routes_outliers(range, bulk.max_abs, candidates, op.depth);
  const RowRange pieces = routed ? bulk : range;
  record_row_verdict(op, row, range, pieces, path_word);
  const int guess = op.exponent[row];
  const int e = numerics::row_exponent(guess, pieces.max_abs, pieces.min_abs_nonzero);
  if (routed) {
    sort_outlier_slots(op.outlier_slots + row * numerics::outlier_slots, candidates);
    op.outlier_state[row] = candidates | outlier_routed;
    atomicAdd(op.outlier_lines, 1u);
    atomicOr(path_word, path_sparse_outliers);
  }
  if (e != guess) {  // split again from the operand
    op.exponent[row] = e;
    op.resplit_list[atomicAdd(op.resplit_count, 1u)] = static_cast<std::uint32_t>(row);
    const std::uint32_t before = atomicOr(op.resplit_panel_rows + row / panel_rows, resplit::row_bit(row));
    if (resplit::opens_group(before, row)) op.resplit_groups[atomicAdd(op.resplit_group_count, 1u)] = resplit::group_of(row);
  } else if (routed) {  // every piece as the split wrote it but its outliers'
    op.resplit_list[resplit::zero_only_slot(op.rows, atomicAdd(op.outlier_zero_count, 1u))] = static_cast<std::uint32_t>(row);
  }
}

// Every row's verdict and exponent, a row per thread over as many blocks as
// it takes; the last block to finish (counted on *blocks_done) settles the
// path: too many wide rows in either operand rule out the FP16 path;
// otherwise the listed rows are flagged for float64 recomputation. One
// launch, and no single block walking 2 x 16384 rows one load after another
// (~9 us at 4096^3, growing with the size).
__global__ void __launch_bounds__(path_choice_threads) path_choice_kernel(const SplitOperand a, const SplitOperand b,
                                                                          std::uint32_t* path_word,
                                                                          std::uint32_t* blocks_done) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (!route_taken(path_word, false)) return;  // NormwiseFP32 took the digits
  // op(A)'s rows, then op(B)^T's; a call per operand (choosing the operand
  // by a run-time condition copied both parameter blocks to local memory).
  const index_t row = static_cast<index_t>(blockIdx.x) * path_choice_threads + threadIdx.x;
  if (row < a.rows)
    settle_row(a, row, path_word);
  else
    settle_row(b, row - a.rows, path_word);
  __threadfence();  // this block's counts and list entries before its arrival
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!last) return;
  __threadfence();
  const std::uint32_t wide_a = __ldcg(a.wide_count), wide_b = __ldcg(b.wide_count);  // L2: the atomics' results
  if (wide_a > static_cast<std::uint32_t>(max_recomputed_rows(a.rows)) ||
      wide_b > static_cast<std::uint32_t>(max_recomputed_rows(b.rows))) {
    if (threadIdx.x == 0) atomicOr(path_word, path_not_fp16_scaled);
    return;
  }
  for (std::uint32_t s = threadIdx.x; s < wide_a; s += blockDim.x) atomicOr(a.nonfinite + __ldcg(a.wide_list + s), row_recomputed);
  for (std::uint32_t s = threadIdx.x; s < wide_b; s += blockDim.x) atomicOr(b.nonfinite + __ldcg(b.wide_list + s), row_recomputed);
}

// The TF32 path's second split: every (row panel, k panel), the panel's
// index in panel_in_tf32.
__device__ __forceinline__ index_t tf32_resplit_items(const SplitOperand& op) {
  return op.rows_pad / panel_rows * split_k_panels(op);
}

// Whether TF32 panel `item` (row panel r0, depth p0) holds the split's TF32
// pieces untouched: written in TF32, and no FP16 panel written over its
// bytes (split_operand.hpp). A lane per row; the answer is the block's.
__device__ __forceinline__ bool tf32_panel_intact(const SplitOperand& dst, index_t item, index_t r0, index_t p0) {
  bool overwritten = dst.panel_in_tf32[item] == 0;
  if (threadIdx.x < panel_rows) {
    const index_t k1 = p0 + panel_k < dst.depth_pad ? p0 + panel_k : dst.depth_pad;
    fp16_panels_over_tf32_row(dst, r0 + threadIdx.x, p0, k1, [&](index_t row_panel, index_t k_panel) {
      overwritten = overwritten || dst.panel_in_tf32[row_panel * split_k_panels(dst) + k_panel] == 0;
    });
  }
  return __syncthreads_or(overwritten) == 0;
}

// One TF32 item: the panel is staged whole (its loads stay coalesced) and
// every row written, unscaled, unless the split's TF32 pieces are intact.
__device__ __forceinline__ void tf32_resplit_item(const OperandRows& src, const SplitOperand& dst, index_t item,
                                                  Panel& panel) {
  const index_t panels = split_k_panels(dst), p0 = item % panels * panel_k, r0 = item / panels * panel_rows;
  if (tf32_panel_intact(dst, item, r0, p0)) return;
  __syncthreads();  // the previous item's reads of the panel are done
  load_panel(with_opaque_strides(src), r0, p0, panel);
  __syncthreads();
  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  float x[per_thread];
  read_row_values(panel, r, q, x);
  write_row_values<SplitRule::tf32>(x, dst, r0 + r, p0, q, true);
}

// A listed row's 16 values of a thread (k panel at p0) into its FP16
// pieces, as the split would with the row's exact exponent: a routed row's
// outliers zeroed (they are added apart).
__device__ __forceinline__ void write_listed_row(float (&x)[per_thread], const SplitOperand& dst, index_t row,
                                                 index_t p0, int q) {
  if ((dst.outlier_state[row] & outlier_routed) != 0) {
    const std::uint32_t threshold_bits = dst.outlier_threshold_bits[row];
#pragma unroll
    for (int v = 0; v < per_thread; ++v)
      if (numerics::is_outlier_candidate(x[v], threshold_bits)) x[v] = 0.0f;
  }
  scale_row_values(x, dst.exponent[row]);
  write_row_values<SplitRule::round_scaled_lo>(x, dst, row, p0, q, false);
}

// Rows k-contiguous: item row r is the chunk's r-th listed row, its lanes
// read their 16 values straight from it (16-byte loads where the row and
// the panel allow: read_row_values' order), no shared memory.
__device__ __forceinline__ void resplit_listed_rows(const OperandRows& src, const SplitOperand& dst, index_t chunk,
                                                    index_t p0, std::uint32_t listed) {
  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  const index_t entry = resplit::row_entry(chunk, r);
  if (entry >= listed) return;
  const index_t row = dst.resplit_list[entry];
  const float* values = src.base + row * src.row_stride + p0;
  float x[per_thread];
  if (p0 + panel_k <= src.depth && src.row_stride % 4 == 0 && reinterpret_cast<std::uintptr_t>(src.base) % 16 == 0) {
#pragma unroll
    for (int g = 0; g < chunks; ++g) {
      const float4 v = __ldg(reinterpret_cast<const float4*>(values + panel_column(q, g, 0)));
      x[g * per_chunk] = v.x, x[g * per_chunk + 1] = v.y, x[g * per_chunk + 2] = v.z, x[g * per_chunk + 3] = v.w;
    }
  } else {
    const index_t depth_left = src.depth - p0;
#pragma unroll
    for (int v = 0; v < per_thread; ++v) {
      const int column = panel_column(q, v / per_chunk, v % per_chunk);
      x[v] = column < depth_left ? __ldg(values + column) : 0.0f;
    }
  }
  write_listed_row(x, dst, row, p0, q);
}

// Rows contiguous (or neither dimension): the chunk's 4 listed 8-row groups
// staged as one 32-row panel (thread t loads panel row t % 32 at depths
// t / 32 + 8 i: a warp reads each group's 32 bytes at one depth), the
// groups' listed rows written.
__device__ __forceinline__ void resplit_listed_groups(const OperandRows& src, const SplitOperand& dst, index_t chunk,
                                                      index_t p0, std::uint32_t groups, Panel& panel) {
  const int t = static_cast<int>(threadIdx.x);
  {
    const int pr = t % panel_rows, k = t / panel_rows;
    constexpr int k_step = split_threads / panel_rows;  // 8
    static_assert(panel_k == k_step * per_thread, "16 depths a thread cover the panel");
    const index_t entry = resplit::group_entry(chunk, pr);
    const index_t row = entry < groups ? resplit::group_row(dst.resplit_groups[entry], pr) : src.rows;
    const bool inside = row < src.rows;
    const float* first = src.base + (inside ? row : 0) * src.row_stride + (p0 + k) * src.depth_stride;
    const index_t step = k_step * src.depth_stride;
    float v[per_thread];
    if (inside && p0 + panel_k <= src.depth) {
#pragma unroll
      for (int i = 0; i < per_thread; ++i) v[i] = __ldg(first + i * step);
    } else {
      const index_t depth_left = src.depth - p0;
#pragma unroll
      for (int i = 0; i < per_thread; ++i) v[i] = inside && k + i * k_step < depth_left ? __ldg(first + i * step) : 0.0f;
    }
    __syncthreads();  // the previous item's reads of the panel are done
#pragma unroll
    for (int i = 0; i < per_thread; ++i) panel[pr][k + i * k_step] = v[i];
  }
  __syncthreads();
  const int r = t / threads_per_row, q = t % threads_per_row;
  const index_t entry = resplit::group_entry(chunk, r);
  if (entry >= groups) return;
  const index_t row = resplit::group_row(dst.resplit_groups[entry], r);
  if (row >= dst.rows || !resplit::listed_in(dst.resplit_panel_rows[row / panel_rows], row)) return;
  float x[per_thread];
  read_row_values(panel, r, q, x);
  write_listed_row(x, dst, row, p0, q);
}

// The routed rows whose guess held: only their outliers' pieces, zero (the
// split of a zeroed value), a thread a row over the grid.
__device__ __forceinline__ void zero_routed_outliers(const SplitOperand& dst) {
  const std::uint32_t rows = *dst.outlier_zero_count;
  for (index_t n = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; n < rows;
       n += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const index_t row = dst.resplit_list[resplit::zero_only_slot(dst.rows, static_cast<std::uint32_t>(n))];
    const std::uint32_t count = dst.outlier_state[row] & outlier_count_mask;
    const uint2* slots = dst.outlier_slots + row * numerics::outlier_slots;
#pragma unroll 1
    for (std::uint32_t s = 0; s < count; ++s) {
      const index_t at = row * dst.depth_pad + slots[s].x;
      static_cast<std::uint16_t*>(dst.piece[0])[at] = 0;
      static_cast<std::uint16_t*>(dst.piece[1])[at] = 0;
    }
  }
}

// The FP16 path's second split of one operand (resplit_plan.hpp): the
// routed rows' outliers zeroed, and the rows whose guess failed split again,
// read per row or per 8-row group by the operand's layout, the items over
// the grid. Every thread walks every item of a group walk (the lanes of
// unlisted rows skip only their writes), so its __syncthreads see the whole
// block; the choice is the block's.
__device__ __forceinline__ void fp16_resplit_operand(const OperandRows& src, const SplitOperand& dst, Panel& panel) {
  zero_routed_outliers(dst);
  const index_t k_panels = split_k_panels(dst);
  if (src.depth_stride == 1) {
    const std::uint32_t listed = *dst.resplit_count;
    const index_t items = resplit::item_count(listed, resplit::item_rows, k_panels);
#pragma unroll 1
    for (index_t item = blockIdx.x; item < items; item += gridDim.x) {
      const resplit::Item at = resplit::item_at(item, k_panels);
      resplit_listed_rows(src, dst, at.chunk, at.k_panel * panel_k, listed);
    }
  } else {
    const std::uint32_t groups = *dst.resplit_group_count;
    const index_t items = resplit::item_count(groups, resplit::groups_per_item, k_panels);
#pragma unroll 1
    for (index_t item = blockIdx.x; item < items; item += gridDim.x) {
      const resplit::Item at = resplit::item_at(item, k_panels);
      resplit_listed_groups(src, dst, at.chunk, at.k_panel * panel_k, groups, panel);
    }
  }
}

// A grid of blocks walks the TF32 items of one operand; every thread walks
// every item, so the item's __syncthreads see the whole block.
__device__ __forceinline__ void tf32_resplit_operand(const OperandRows& src, const SplitOperand& dst, Panel& panel) {
  const index_t items = tf32_resplit_items(dst);
#pragma unroll 1
  for (index_t item = blockIdx.x; item < items; item += gridDim.x) tf32_resplit_item(src, dst, item, panel);
}

__device__ __forceinline__ void zero_exponents(const SplitOperand& op) {
  for (index_t row = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < op.rows_pad;
       row += static_cast<index_t>(gridDim.x) * blockDim.x)
    op.exponent[row] = 0;
}

// EmulatedFP32's second split, by the path chosen (see the file comment).
__global__ void __launch_bounds__(split_threads) resplit_kernel(const OperandPair ops, const std::uint32_t* path_word) {
  wait_for_previous_kernel();
  allow_next_kernel();
  const EmulationPath path = path_from_word(*path_word);
  __shared__ Panel panel;
  if (path == EmulationPath::tf32_full_range) {
    zero_exponents(ops.dst[0]);  // TF32 pieces are not scaled
    zero_exponents(ops.dst[1]);
    tf32_resplit_operand(ops.src[0], ops.dst[0], panel);
    tf32_resplit_operand(ops.src[1], ops.dst[1], panel);
  } else if (path == EmulationPath::fp16_scaled) {
    fp16_resplit_operand(ops.src[0], ops.dst[0], panel);
    fp16_resplit_operand(ops.src[1], ops.dst[1], panel);
  }
}

template <SplitRule Rule>
void launch_split_rule(const OperandPair& ops, std::uint32_t* any_nonfinite, dim3 grid, cudaStream_t stream) {
  if (any_nonfinite != nullptr)
    launch_dependent(split_kernel<Rule, PanelSplit::records_nonfinite>, grid, split_threads, 0, stream, ops, any_nonfinite,
                     nullptr);
  else
    launch_dependent(split_kernel<Rule, PanelSplit::plain>, grid, split_threads, 0, stream, ops, nullptr, nullptr);
}

// Panels over the larger of the operands' padded extents; z: the operands.
dim3 panel_grid(const OperandPair& ops, int operands) {
  index_t rows_pad = 0, depth_pad = 0;
  for (int i = 0; i < operands; ++i) {
    const SplitOperand& dst = ops.dst[i];
    if (dst.rows_pad % panel_rows != 0 || dst.depth_pad % (threads_per_row * per_chunk) != 0)
      throw invalid_argument("egemm::cuda::launch_split: padded extents must be multiples of 32");
    rows_pad = std::max(rows_pad, dst.rows_pad), depth_pad = std::max(depth_pad, dst.depth_pad);
  }
  const index_t gx = rows_pad / panel_rows, gy = (depth_pad + panel_k - 1) / panel_k;
  if (depth_pad > split_max_depth) throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth_pad) + " exceeds the split grid's limit");
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(operands));
}

void launch_split_pass(const OperandPair& ops, int operands, SplitRule rule, std::uint32_t* any_nonfinite,
                       cudaStream_t stream) {
  const dim3 grid = panel_grid(ops, operands);
  if (grid.x == 0 || grid.y == 0) return;
  switch (rule) {
    case SplitRule::round_hi_only: return launch_split_rule<SplitRule::round_hi_only>(ops, any_nonfinite, grid, stream);
    case SplitRule::round: return launch_split_rule<SplitRule::round>(ops, any_nonfinite, grid, stream);
    case SplitRule::truncate: return launch_split_rule<SplitRule::truncate>(ops, any_nonfinite, grid, stream);
    case SplitRule::round_scaled_lo: return launch_split_rule<SplitRule::round_scaled_lo>(ops, any_nonfinite, grid, stream);
    case SplitRule::tf32: return launch_split_rule<SplitRule::tf32>(ops, any_nonfinite, grid, stream);
    case SplitRule::none: break;
  }
  throw invalid_argument("egemm::cuda::launch_split: SplitRule::none has no pieces");
}

}  // namespace

void launch_split(const OperandRows& src, SplitRule rule, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                  cudaStream_t stream) {
  launch_split_pass(OperandPair{{src, src}, {dst, dst}}, 1, rule, any_nonfinite, stream);
}

void launch_split_both(const OperandRows& a_src, const OperandRows& b_src, SplitRule rule, const SplitOperand& a,
                       const SplitOperand& b, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  launch_split_pass(OperandPair{{a_src, b_src}, {a, b}}, 2, rule, any_nonfinite, stream);
}

void launch_emulated_fp32_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                                const SplitOperand& b, std::uint32_t* path_word, std::uint32_t* verdict_blocks,
                                std::uint32_t* any_nonfinite, cudaStream_t stream, bool behind_route) {
  const OperandPair both{{a_src, b_src}, {a, b}};
  const dim3 grid = panel_grid(both, 2);
  if (grid.x == 0 || grid.y == 0) return;
  // The first kernel after the statistics' memset: a plain launch.
  constexpr auto rule = SplitRule::round_scaled_lo;
  if (behind_route) {
    constexpr auto walk = split_walk_kernel<rule, PanelSplit::guessed_scaling>;
    static PerDevice<int> held;
    const int per_sm = held.get([](int) { return resident_blocks_per_sm(walk, split_threads, 0); });
    const index_t panels = static_cast<index_t>(grid.x) * grid.y * grid.z;
    const index_t blocks = std::min<index_t>(panels, static_cast<index_t>(per_sm) * device_facts().sms);
    launch_plain(walk, dim3(static_cast<unsigned>(blocks)), dim3(split_threads), 0, stream, both, grid, any_nonfinite,
                 path_word);
  } else {
    launch_plain(split_kernel<rule, PanelSplit::guessed_scaling>, grid, dim3(split_threads), 0, stream, both,
                 any_nonfinite, path_word);
  }
  if (a.rows + b.rows > 0) {
    const index_t blocks = (a.rows + b.rows + path_choice_threads - 1) / path_choice_threads;
    launch_dependent(path_choice_kernel, dim3(static_cast<unsigned>(blocks)), path_choice_threads, 0, stream, a, b,
                     path_word, verdict_blocks);
  }
  // As many blocks as the SMs hold at once (the TF32 path's whole split) and
  // no more: on the usual FP16 path they find a short list, or none.
  static PerDevice<int> resident;
  const int per_sm = resident.get([](int) { return resident_blocks_per_sm(resplit_kernel, split_threads, 0); });
  const index_t panels = static_cast<index_t>(grid.x) * grid.y * 2;
  const index_t blocks = std::min<index_t>(panels, static_cast<index_t>(per_sm) * device_facts().sms);
  launch_dependent(resplit_kernel, dim3(static_cast<unsigned>(blocks)), split_threads, 0, stream, both,
                   static_cast<const std::uint32_t*>(path_word));
}

}  // namespace egemm::cuda
