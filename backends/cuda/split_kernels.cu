// The split on CUDA cores: a stats pass (per row: largest and smallest
// nonzero finite |x|, any Inf/NaN) and a split pass writing the pieces
// k-contiguous and zero padded. Both stage a 32-row x 128-k panel through
// shared memory so global reads are coalesced whichever dimension of the
// operand is contiguous (transposes folded in), with 16 loads in flight per
// thread (a 32x32 tile per block kept only 4, and the passes ran at half the
// memory bandwidth); both call the same bit-exact numerics as the host oracle.
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/split_operand.hpp"
#include "egemm/errors.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"

namespace egemm::cuda {
namespace {

constexpr int panel_rows = 32;
constexpr int panel_k = 128;
constexpr int split_threads = 256;
constexpr int threads_per_row = 8;
constexpr int per_chunk = 4;                            // consecutive k a thread holds per 32-wide chunk
constexpr int chunks = panel_k / (threads_per_row * per_chunk);  // 4
constexpr int per_thread = chunks * per_chunk;          // 16 values of one row
static_assert(panel_rows * threads_per_row == split_threads, "one thread per (row, eighth of the panel)");

using Panel = float[panel_rows][panel_k + 1];  // +1: column walks are conflict-free too

// Panel (r, p) = src(r0 + r, p0 + p), 0 outside src. Consecutive lanes walk the
// operand's contiguous dimension, so each warp reads 128 contiguous bytes:
// thread t's i-th value is (t % 32, t / 32 + 8 i) when rows are contiguous,
// (t / 128 + 2 i, t % 128) when k is. One pointer and one stride per thread
// (per-element 64-bit index arithmetic made these passes issue-bound), all
// loads in registers before the first shared-memory store.
__device__ void load_panel(const OperandRows& src, index_t r0, index_t p0, Panel& panel) {
  static_assert(panel_rows * panel_k == per_thread * split_threads, "every thread loads per_thread values");
  const bool rows_contiguous = src.row_stride == 1;
  const int t = static_cast<int>(threadIdx.x);
  const int r_first = rows_contiguous ? t % panel_rows : t / panel_k;
  const int p_first = rows_contiguous ? t / panel_rows : t % panel_k;
  const int r_step = rows_contiguous ? 0 : split_threads / panel_k;
  const int p_step = rows_contiguous ? split_threads / panel_rows : 0;
  const float* first = src.base + (r0 + r_first) * src.row_stride + (p0 + p_first) * src.depth_stride;
  const index_t step = r_step * src.row_stride + p_step * src.depth_stride;
  float v[per_thread];
  if (r0 + panel_rows <= src.rows && p0 + panel_k <= src.depth) {  // interior: no bounds to check
#pragma unroll
    for (int i = 0; i < per_thread; ++i) v[i] = __ldg(first + i * step);
  } else {
    const index_t rows_left = src.rows - r0, depth_left = src.depth - p0;
#pragma unroll
    for (int i = 0; i < per_thread; ++i)
      v[i] = r_first + i * r_step < rows_left && p_first + i * p_step < depth_left ? __ldg(first + i * step) : 0.0f;
  }
#pragma unroll
  for (int i = 0; i < per_thread; ++i) panel[r_first + i * r_step][p_first + i * p_step] = v[i];
}

// The panel column of a thread's value (chunk g, element c): lanes of a row
// take interleaved groups of 4, so a warp's 4 rows x 8 lanes hit 32 banks.
__device__ __forceinline__ int panel_column(int q, int g, int c) { return g * threads_per_row * per_chunk + q * per_chunk + c; }

__global__ void __launch_bounds__(split_threads) row_stats_kernel(const OperandRows src, const SplitOperand dst,
                                                                  std::uint32_t* any_nonfinite) {
  __shared__ Panel panel;
  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  load_panel(src, r0, p0, panel);
  __syncthreads();

  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  std::uint32_t max_bits = 0, min_inv = 0, bad = 0;  // min kept as ~bits so that max() finds it
#pragma unroll
  for (int v = 0; v < per_thread; ++v) {
    const float x = panel[r][panel_column(q, v / per_chunk, v % per_chunk)];
    const std::uint32_t abs_bits = numerics::float_bits(x) & 0x7fffffffu;
    if (!numerics::is_finite(x)) {
      bad = 1;
    } else if (abs_bits != 0) {
      max_bits = max(max_bits, abs_bits);
      min_inv = max(min_inv, ~abs_bits);
    }
  }
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) {  // reduce over the row's 8 lanes
    max_bits = max(max_bits, __shfl_xor_sync(0xffffffffu, max_bits, lanes));
    min_inv = max(min_inv, __shfl_xor_sync(0xffffffffu, min_inv, lanes));
    bad |= __shfl_xor_sync(0xffffffffu, bad, lanes);
  }
  const index_t row = r0 + r;
  if (q != 0 || row >= src.rows) return;
  if (max_bits != 0) {
    atomicMax(dst.max_abs_bits + row, max_bits);
    atomicMax(dst.min_abs_inv_bits + row, min_inv);
  }
  if (bad) {
    atomicOr(dst.nonfinite + row, row_nonfinite);
    atomicOr(any_nonfinite, 1u);
  }
}

__global__ void path_verdict_kernel(const SplitOperand op, std::uint32_t* path_word) {
  const index_t row = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (row >= op.rows) return;
  RowRange range;
  range.max_abs = numerics::bits_to_float(op.max_abs_bits[row]);
  const std::uint32_t min_inv = op.min_abs_inv_bits[row];
  range.min_abs_nonzero = min_inv == 0 ? 0.0f : numerics::bits_to_float(~min_inv);
  if (!fits_fp16_scaled(range)) {
    const std::uint32_t slot = atomicAdd(op.wide_count, 1u);
    if (slot < static_cast<std::uint32_t>(max_recomputed_rows(op.rows))) op.wide_list[slot] = static_cast<std::uint32_t>(row);
  }
  if (!fits_tf32(range)) atomicOr(path_word, path_not_tf32);
}

// One block: too many wide rows in either operand rule out the FP16 path;
// otherwise the listed rows are flagged for float64 recomputation.
__global__ void path_settle_kernel(const SplitOperand a, const SplitOperand b, std::uint32_t* path_word) {
  const std::uint32_t wide_a = *a.wide_count, wide_b = *b.wide_count;
  if (wide_a > static_cast<std::uint32_t>(max_recomputed_rows(a.rows)) ||
      wide_b > static_cast<std::uint32_t>(max_recomputed_rows(b.rows))) {
    if (threadIdx.x == 0) atomicOr(path_word, path_not_fp16_scaled);
    return;
  }
  for (std::uint32_t s = threadIdx.x; s < wide_a; s += blockDim.x) atomicOr(a.nonfinite + a.wide_list[s], row_recomputed);
  for (std::uint32_t s = threadIdx.x; s < wide_b; s += blockDim.x) atomicOr(b.nonfinite + b.wide_list[s], row_recomputed);
}

// 4 consecutive values of one row as FP16 pieces: one 8-byte store per piece.
template <SplitRule Rule>
__device__ void write_half_pieces(const float* x, const SplitOperand& dst, index_t offset) {
  std::uint32_t hi[2] = {0, 0}, lo[2] = {0, 0};
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const numerics::HalfPieces pieces = numerics::split_to_half(x[c], Rule);
    hi[c / 2] |= static_cast<std::uint32_t>(pieces.hi) << (16 * (c % 2));
    lo[c / 2] |= static_cast<std::uint32_t>(pieces.lo) << (16 * (c % 2));
  }
  *reinterpret_cast<uint2*>(static_cast<std::uint16_t*>(dst.piece[0]) + offset) = make_uint2(hi[0], hi[1]);
  if constexpr (Rule != SplitRule::round_hi_only)
    *reinterpret_cast<uint2*>(static_cast<std::uint16_t*>(dst.piece[1]) + offset) = make_uint2(lo[0], lo[1]);
}

// 4 consecutive values of one row as TF32 big/small pieces: one 16-byte store per piece.
__device__ void write_tf32_pieces(const float* x, const SplitOperand& dst, index_t offset) {
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

// Flags rows holding Inf or NaN from the values a thread holds (8 lanes per row).
__device__ void record_nonfinite(const float (&x)[per_thread], index_t row, index_t rows, const SplitOperand& dst,
                                 std::uint32_t* any_nonfinite) {
  std::uint32_t bad = 0;
#pragma unroll
  for (int c = 0; c < per_thread; ++c) bad |= numerics::is_finite(x[c]) ? 0u : 1u;
#pragma unroll
  for (int lanes = threads_per_row / 2; lanes > 0; lanes /= 2) bad |= __shfl_xor_sync(0xffffffffu, bad, lanes);
  if (bad && threadIdx.x % threads_per_row == 0 && row < rows) {
    atomicOr(dst.nonfinite + row, row_nonfinite);
    atomicOr(any_nonfinite, 1u);
  }
}

// With RecordsNonfinite the split also flags Inf/NaN rows, so a policy that
// needs no row maximum (no scaling, no path choice) skips the stats pass and
// reads its operands once.
template <SplitRule Rule, bool ScaleRows, bool RecordsNonfinite>
__global__ void __launch_bounds__(split_threads) split_kernel(const OperandRows src, const SplitOperand dst,
                                                              const std::uint32_t* path_word,
                                                              std::uint32_t* any_nonfinite) {
  // A path-selecting call (EmulatedFP32) splits by the path chosen on the device.
  const EmulationPath path = path_word == nullptr ? EmulationPath::fp16_scaled : path_from_word(*path_word);
  if (path == EmulationPath::native_fp32) return;
  const bool tf32 = Rule == SplitRule::tf32 || path == EmulationPath::tf32_full_range;

  __shared__ Panel panel;
  const index_t r0 = static_cast<index_t>(blockIdx.x) * panel_rows, p0 = static_cast<index_t>(blockIdx.y) * panel_k;
  load_panel(src, r0, p0, panel);
  __syncthreads();

  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  const index_t row = r0 + r;
  int e = 0;
  if (ScaleRows && !tf32 && row < src.rows)
    e = numerics::range_exponent(numerics::bits_to_float(dst.max_abs_bits[row]));
  if (blockIdx.y == 0 && q == 0) dst.exponent[row] = e;

  float x[per_thread];
#pragma unroll
  for (int v = 0; v < per_thread; ++v) {
    x[v] = panel[r][panel_column(q, v / per_chunk, v % per_chunk)];
    // NaN passes unscaled, payload kept (as the host's ldexpf does; CUDA's returns a canonical NaN).
    if (ScaleRows && e != 0 && numerics::is_finite(x[v])) x[v] = numerics::scale_by_pow2(x[v], -e);
  }
  if constexpr (RecordsNonfinite) record_nonfinite(x, row, src.rows, dst, any_nonfinite);
#pragma unroll
  for (int g = 0; g < chunks; ++g) {
    const index_t p = p0 + panel_column(q, g, 0);
    if (p >= dst.depth_pad) break;  // the padded depth is a multiple of 32, not of the panel
    const index_t offset = row * dst.depth_pad + p;
    if (tf32) write_tf32_pieces(x + g * per_chunk, dst, offset);
    else if constexpr (Rule != SplitRule::tf32) write_half_pieces<Rule>(x + g * per_chunk, dst, offset);
  }
}

template <SplitRule Rule>
void launch_split_rule(const OperandRows& src, bool scale_rows, const SplitOperand& dst,
                       const std::uint32_t* path_word, std::uint32_t* any_nonfinite, dim3 grid, cudaStream_t stream) {
  if (scale_rows) split_kernel<Rule, true, false><<<grid, split_threads, 0, stream>>>(src, dst, path_word, nullptr);
  else if (any_nonfinite != nullptr)
    split_kernel<Rule, false, true><<<grid, split_threads, 0, stream>>>(src, dst, path_word, any_nonfinite);
  else split_kernel<Rule, false, false><<<grid, split_threads, 0, stream>>>(src, dst, path_word, nullptr);
  EGEMM_CUDA_CHECK_LAUNCH();
}

dim3 panel_grid(index_t rows, index_t depth) {
  const index_t gx = (rows + panel_rows - 1) / panel_rows, gy = (depth + panel_k - 1) / panel_k;
  if (gy > 65535) throw unsupported("egemm::gemm (CUDA): k = " + std::to_string(depth) + " exceeds the split grid's limit");
  return dim3(static_cast<unsigned>(gx), static_cast<unsigned>(gy));
}

}  // namespace

void launch_row_stats(const OperandRows& src, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                      cudaStream_t stream) {
  if (src.rows == 0 || src.depth == 0) return;
  row_stats_kernel<<<panel_grid(src.rows, src.depth), split_threads, 0, stream>>>(src, dst, any_nonfinite);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_path_verdict(const SplitOperand& op, std::uint32_t* path_word, cudaStream_t stream) {
  if (op.rows == 0) return;
  constexpr int threads = 256;
  path_verdict_kernel<<<static_cast<unsigned>((op.rows + threads - 1) / threads), threads, 0, stream>>>(op, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_path_settle(const SplitOperand& a, const SplitOperand& b, std::uint32_t* path_word, cudaStream_t stream) {
  path_settle_kernel<<<1, 256, 0, stream>>>(a, b, path_word);
  EGEMM_CUDA_CHECK_LAUNCH();
}

void launch_split(const OperandRows& src, SplitRule rule, bool scale_rows, const SplitOperand& dst,
                  const std::uint32_t* path_word, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  if (dst.rows_pad % panel_rows != 0 || dst.depth_pad % (threads_per_row * per_chunk) != 0)
    throw invalid_argument("egemm::cuda::launch_split: padded extents must be multiples of 32");
  if (any_nonfinite != nullptr && (scale_rows || path_word != nullptr))
    throw invalid_argument("egemm::cuda::launch_split: scaling and path choice need the stats pass for the flags");
  const dim3 grid = panel_grid(dst.rows_pad, dst.depth_pad);
  switch (rule) {
    case SplitRule::round_hi_only:
      return launch_split_rule<SplitRule::round_hi_only>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::round:
      return launch_split_rule<SplitRule::round>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::truncate:
      return launch_split_rule<SplitRule::truncate>(src, scale_rows, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::round_scaled_lo:
      return launch_split_rule<SplitRule::round_scaled_lo>(src, scale_rows, dst, path_word, any_nonfinite, grid,
                                                           stream);
    case SplitRule::tf32:
      return launch_split_rule<SplitRule::tf32>(src, false, dst, path_word, any_nonfinite, grid, stream);
    case SplitRule::none: break;
  }
  throw invalid_argument("egemm::cuda::launch_split: SplitRule::none has no pieces");
}

}  // namespace egemm::cuda
