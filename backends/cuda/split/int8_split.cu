// Int8Slices' split on CUDA cores. The digits need each row's exact
// exponent before any of them is written (a guessed one, as EmulatedFP32's
// split takes, that is a power of two too high costs every element of the row
// a bit), so the row's maximum comes first. Two ways, over the 32-row x 128-k
// panels the other splits use (split_panel.cuh):
//  - one read from DRAM (lagged_split_kernel): each block gathers one
//    panel's row maxima, then writes the digits of a panel gathered a
//    little earlier, whose row panel is complete, re-reading it from L2;
//  - two reads (grids too large for its tickets, or the tuning's int8_one_read_split false):
//    a launch for the row maxima, one for the digits (blockIdx.z the operand).
// Both write the bits numerics/int8_digits.hpp gives the host oracle, and
// for NormwiseFP32's route (int8_route.cu) sum each row's weight and, where
// wanted, each panel's column sums (numerics/int8_cross_rule.hpp).
#include <algorithm>
#include <cstdint>
#include <string>

#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/split/int8_column_sums.cuh"
#include "backends/cuda/split/split_operand.hpp"
#include "backends/cuda/split/split_panel.cuh"
#include "egemm/errors.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

struct DigitOperands {
  OperandRows src[2];
  SplitOperand dst[2];
};

// A panel's values merged into their rows' statistics (stats words and
// flags zero on entry): each row's largest finite |x|, and its Inf/NaN flag.
// Every thread calls it (its row's 8 lanes reduce together).
__device__ __forceinline__ void merge_row_maxima(const SplitOperand& dst, index_t row, int q,
                                                 const float (&x)[per_thread], std::uint32_t* any_nonfinite) {
  RowStats stats;
#pragma unroll
  for (int v = 0; v < per_thread; ++v) stats.add(x[v]);
  stats.reduce_over_row_lanes();
  if (q != 0 || row >= dst.rows) return;
  if (stats.max_bits != 0) atomicMax(dst.max_abs_bits + row, stats.max_bits);
  if (stats.nonfinite) flag_nonfinite_row(dst, row, any_nonfinite);
}

// Launch 1's panel: its rows' statistics.
__device__ __forceinline__ void row_maxima_of_panel(const OperandRows& src, const SplitOperand& dst,
                                                    std::uint32_t* any_nonfinite) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ alignas(16) Panel panel;  // 16-byte aligned: write_digits stages its digits there for uint4 stores
  float x[per_thread];
  load_row_values(src, at.r0, at.p0, at.r, at.q, panel, x);
  merge_row_maxima(dst, at.row, at.q, x, any_nonfinite);
}

// How a row's values become their scaled integers N = RN(x 2^(23 - e)):
// by one multiply where 2^(23 - e) is a normal float (every row but those
// below ~2^-103), else as the host does it (numerics::int8_scaled_integer).
struct DigitScale {
  bool by_multiply;
  float factor;
  int e;
  __device__ __forceinline__ explicit DigitScale(int row_exponent)
      : by_multiply(numerics::is_normal_pow2(23 - row_exponent)),
        factor(by_multiply ? numerics::pow2_normal(23 - row_exponent) : 0.0f), e(row_exponent) {}
  // The product is exact (|N| <= 2^23) and cvt.rni rounds half to even as
  // rintf does; Inf and NaN give 0, as on the host.
  __device__ __forceinline__ std::int32_t scaled_integer(float x) const {
    if (!by_multiply) return numerics::int8_scaled_integer(x, e);
    return numerics::is_finite(x) ? __float2int_rn(x * factor) : 0;
  }
};

// Four consecutive values' digits: packed[s] holds digit s (d0, d1, d2) of
// value c in byte c, the bytes numerics::int8_digits gives. A piece's bytes
// are those of the biased integers m = N + 0x808080 XOR 0x80
// (numerics::int8_biased_digits), gathered by byte permutes: ~3
// instructions a value where the digits one by one (a division and a shift
// each) took ~20.
// Returns the four values' part of their row's weight (numerics::int8_row_weight).
__device__ __forceinline__ std::uint32_t pack_digits(const float* x, const DigitScale& scale,
                                                     std::uint32_t (&packed)[3]) {
  std::uint32_t m[per_chunk], weight = 0;
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const std::int32_t n = scale.scaled_integer(x[c]);
    weight += numerics::int8_row_weight(n);
    m[c] = numerics::int8_biased_digits(n);
  }
  // __byte_perm(a, b, s): result byte i is byte s_i of (b:a), s_i the i-th nibble of s.
  const std::uint32_t low01 = __byte_perm(m[0], m[1], 0x5140), low23 = __byte_perm(m[2], m[3], 0x5140);  // bytes 0, 1
  const std::uint32_t top01 = __byte_perm(m[0], m[1], 0x0062), top23 = __byte_perm(m[2], m[3], 0x0062);  // bytes 2
  packed[0] = __byte_perm(top01, top23, 0x5410) ^ 0x80808080u;
  packed[1] = __byte_perm(low01, low23, 0x7632) ^ 0x80808080u;
  packed[2] = __byte_perm(low01, low23, 0x5410) ^ 0x80808080u;
  return weight;
}

// A thread's part of row `row`'s weight in its panel, summed over the row's
// 8 lanes and added to the row's total (integers: the same sum in any order).
__device__ __forceinline__ void add_row_weight(const SplitOperand& dst, index_t row, int q, std::uint32_t weight) {
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) weight += __shfl_xor_sync(0xffffffffu, weight, lanes);
  if (q != 0 || row >= dst.rows || weight == 0) return;
  atomicAdd(dst.row_weight + row, weight);
}

// A panel's digits staged in shared memory for 16-byte stores: piece s,
// panel row r, 4-byte word w. Rows of 40 words: the 4 rows x 8 lanes of a
// warp's 4-byte stores hit 32 banks, and a row stays 16-byte aligned.
inline constexpr int staged_row_words = 40;
using StagedDigits = std::uint32_t[3][panel_rows][staged_row_words];
static_assert(sizeof(StagedDigits) <= sizeof(Panel), "a panel's space, once read, stages its digits");

// Every thread's 16 values of its panel row r (read_row_values' order;
// panel at row r0, depth p0) as digits with its row's exponent e (and their
// part of the row's weight), written
// as whole 128-byte rows of each piece, 16 bytes a thread (4-byte stores
// from each thread's scattered quads had kept L2 busy with requests).
// `staging_panel`: a panel's shared memory no thread reads any more, 16-byte
// aligned (its declarations say alignas(16): another shared variable before
// it had left it 4-byte aligned, and the uint4 reads faulted).
__device__ __forceinline__ void write_digits(const float (&x)[per_thread], int e, const SplitOperand& dst, index_t r0,
                                             index_t p0, int r, int q, Panel& staging_panel) {
  auto& staging = reinterpret_cast<StagedDigits&>(staging_panel);
  const DigitScale scale(e);
  std::uint32_t weight = 0;
#pragma unroll
  for (int g = 0; g < chunks; ++g) {
    std::uint32_t packed[3];
    weight += pack_digits(x + g * per_chunk, scale, packed);
#pragma unroll
    for (int s = 0; s < 3; ++s) staging[s][r][panel_column(q, g, 0) / per_chunk] = packed[s];
  }
  __syncthreads();
  add_row_weight(dst, r0 + r, q, weight);
  const int t = static_cast<int>(threadIdx.x), row = t / 8, word = 4 * (t % 8);  // 8 threads a 128-byte row
#pragma unroll
  for (int s = 0; s < 3; ++s)
    *reinterpret_cast<uint4*>(static_cast<std::uint8_t*>(dst.piece[s]) + (r0 + row) * dst.depth_pad + p0 + 4 * word) =
        *reinterpret_cast<const uint4*>(&staging[s][row][word]);
}

// A panel's values as digits (zeros outside src), each row with the exact
// exponent of its finished statistics (read from L2, where the atomics left
// them: a line in L1 could be older); the row's first k panel writes the
// exponent. NormwiseFP32's column sums too, where wanted.
__device__ __forceinline__ void digits_of_place(const OperandRows& src, const SplitOperand& dst, const PanelPlace& at,
                                                Panel& panel) {
  float x[per_thread];
  load_row_values(src, at.r0, at.p0, at.r, at.q, panel, x);
  const int e =
      at.row < dst.rows ? numerics::int8_row_exponent(numerics::bits_to_float(__ldcg(dst.max_abs_bits + at.row))) : 0;
  if (at.p0 == 0 && at.q == 0) dst.exponent[at.row] = e;
  if (dst.column_sums.wanted()) write_column_sums(x, e, dst, at, panel);
  write_digits(x, e, dst, at.r0, at.p0, at.r, at.q, panel);
}

// Launch 2's panel: every panel of the padded extent.
__device__ __forceinline__ void digits_of_panel(const OperandRows& src, const SplitOperand& dst) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ alignas(16) Panel panel;  // 16-byte aligned: write_digits stages its digits there for uint4 stores
  digits_of_place(src, dst, at, panel);
}

__global__ void __launch_bounds__(split_threads) row_maxima_kernel(const DigitOperands ops, std::uint32_t* any_nonfinite) {
  wait_for_previous_kernel();
  allow_next_kernel();
  // A branch to constant indices: a run-time index would copy the parameters to local memory.
  if (blockIdx.z == 0)
    row_maxima_of_panel(ops.src[0], ops.dst[0], any_nonfinite);
  else
    row_maxima_of_panel(ops.src[1], ops.dst[1], any_nonfinite);
}

__global__ void __launch_bounds__(split_threads) digits_kernel(const DigitOperands ops) {
  wait_for_previous_kernel();
  allow_next_kernel();
  if (blockIdx.z == 0)
    digits_of_panel(ops.src[0], ops.dst[0]);
  else
    digits_of_panel(ops.src[1], ops.dst[1]);
}

// --- one read: the digits lag the maxima ----------------------------------------

// Thread 0 spins until *counter reaches `target` (acquire: what the arriving
// blocks wrote before their fenced arrivals is visible after it).
__device__ __forceinline__ void wait_for_count(const std::uint32_t* counter, std::uint32_t target) {
  for (;;) {
    std::uint32_t seen;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];\n" : "=r"(seen) : "l"(counter) : "memory");
    if (seen >= target) return;
    __nanosleep(64);
  }
}

// Panel `item` of an operand: row panel item / k panels, k panel item % k panels.
__device__ __forceinline__ index_t k_panels_of(const SplitOperand& dst) { return dst.depth_pad / panel_k; }
__device__ __forceinline__ PanelPlace place_of_item(const SplitOperand& dst, index_t item) {
  return PanelPlace(item / k_panels_of(dst) * panel_rows, item % k_panels_of(dst) * panel_k);
}

// The first half of a block's work: panel `item`'s rows' maxima merged into
// the statistics (and Inf/NaN flagged), then the block's arrival at its row panel.
__device__ __forceinline__ void gather_panel_maxima(const OperandRows& src, const SplitOperand& dst, index_t item,
                                                    Panel& panel, std::uint32_t* any_nonfinite) {
  const PanelPlace at = place_of_item(dst, item);
  float x[per_thread];
  load_row_values(src, at.r0, at.p0, at.r, at.q, panel, x);
  merge_row_maxima(dst, at.row, at.q, x, any_nonfinite);
  __syncthreads();  // every row's maximum merged before the block arrives
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(dst.panel_arrivals + at.r0 / panel_rows, 1u);
  }
}

// The second half: once every k panel of its row panel has arrived, panel
// `item` again (from L2: it was read a moment before) as digits.
__device__ __forceinline__ void write_panel_digits(const OperandRows& src, const SplitOperand& dst, index_t item,
                                                   Panel& panel) {
  const PanelPlace at = place_of_item(dst, item);
  if (threadIdx.x == 0)
    wait_for_count(dst.panel_arrivals + at.r0 / panel_rows, static_cast<std::uint32_t>(k_panels_of(dst)));
  __syncthreads();
  digits_of_place(src, dst, at, panel);
}

// Block t gathers the maxima of panel t and writes the digits of panel t -
// lag, in ticket order (taken as blocks start, not blockIdx: the launch order
// of blocks is not promised): op(A)'s panels row panel after row panel, then
// op(B)'s. With lag at least a row panel's k panels, every panel of the row
// panel it writes had its ticket taken before its own, by a block that
// arrives before it waits on anything: no wait depends on a free slot, so
// any number of these kernels can share the GPU. The lag is short enough
// that the second read finds the panel still in L2.
__global__ void __launch_bounds__(split_threads, 6) lagged_split_kernel(const DigitOperands ops, std::uint32_t* tickets,
                                                                     index_t panels, index_t lag,
                                                                     std::uint32_t* any_nonfinite) {
  wait_for_previous_kernel();
  allow_next_kernel();
  __shared__ alignas(16) Panel panel;  // 16-byte aligned: write_digits stages its digits there for uint4 stores
  __shared__ std::uint32_t ticket;
  if (threadIdx.x == 0) ticket = atomicAdd(tickets, 1u);
  __syncthreads();
  const index_t t = ticket, panels_a = ops.dst[0].rows_pad / panel_rows * (ops.dst[0].depth_pad / panel_k);
  // Branches to constant indices: a run-time index would copy the parameters to local memory.
  if (t < panels_a)
    gather_panel_maxima(ops.src[0], ops.dst[0], t, panel, any_nonfinite);
  else if (t < panels)
    gather_panel_maxima(ops.src[1], ops.dst[1], t - panels_a, panel, any_nonfinite);
  if (t < lag) return;
  if (t - lag < panels_a)
    write_panel_digits(ops.src[0], ops.dst[0], t - lag, panel);
  else
    write_panel_digits(ops.src[1], ops.dst[1], t - lag - panels_a, panel);
}

// The lag in panels: a row panel's k panels at least (the kernel's
// guarantee); 192 at least, the fastest of 64 to 512 at 8192^3 on an H100
// (shorter: blocks wait for row panels still being read; longer: the
// re-reads began to miss L2; perf_tests/gemm_suite, Int8Slices).
inline constexpr index_t lagged_split_min_lag = 192;
// Blocks (tickets) one launch takes: a 1-D grid of 32-bit tickets.
inline constexpr index_t lagged_split_max_tickets = 0x7fffffff;

}  // namespace

void launch_int8_slices_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                              const SplitOperand& b, std::uint32_t* any_nonfinite, std::uint32_t* tickets,
                              cudaStream_t stream) {
  DigitOperands ops{{a_src, b_src}, {a, b}};
  index_t rows_pad = 0, depth_pad = 0;
  for (const SplitOperand& op : ops.dst) {
    if (op.rows_pad % panel_rows != 0 || op.depth_pad % panel_k != 0)
      throw invalid_argument("egemm::cuda::launch_int8_slices_split: padded extents must be multiples of the panel");
    rows_pad = std::max(rows_pad, op.rows_pad);
    depth_pad = std::max(depth_pad, op.depth_pad);
  }
  if (depth_pad > split_max_depth)
    throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth_pad) + " exceeds the split grid's limit");
  if (rows_pad == 0 || depth_pad == 0) return;
  // The first kernel after the statistics' memset: plain launches. Both
  // operands have depth_pad (k rounded up to the panel).
  const index_t panels = (a.rows_pad / panel_rows + b.rows_pad / panel_rows) * (depth_pad / panel_k);
  const index_t lag = std::max(depth_pad / panel_k, lagged_split_min_lag);
  if (tuning().int8_one_read_split && panels + lag <= lagged_split_max_tickets)
    return launch_plain(lagged_split_kernel, dim3(static_cast<unsigned>(panels + lag)), dim3(split_threads), 0, stream,
                        ops, tickets, panels, lag, any_nonfinite);
  const dim3 grid(static_cast<unsigned>(rows_pad / panel_rows), static_cast<unsigned>(depth_pad / panel_k), 2);
  launch_plain(row_maxima_kernel, grid, dim3(split_threads), 0, stream, ops, any_nonfinite);
  launch_dependent(digits_kernel, grid, split_threads, 0, stream, ops);
}

}  // namespace egemm::cuda
