// Int8Slices' split on CUDA cores. The digits need each row's exact
// exponent before any of them is written (a guessed one, as EmulatedFP32's
// split takes, that is a power of two too high costs every element of the row
// a bit), so the row's maximum comes first. Two ways, over the 32-row x 128-k
// panels the other splits use (split_panel.cuh; op(A) and op(B)^T in one
// launch, blockIdx.z picking the operand):
//  - one read (sm_90, k up to cluster_split_max_depth): a cluster of blocks
//    holds a row panel's whole depth in their shared memory, each a slice
//    of k; the blocks exchange their slices' row maxima through distributed
//    shared memory, then write the digits from what they hold;
//  - two reads (elsewhere): a launch for the row maxima, one for the digits.
// Both write the bits numerics/int8_digits.hpp gives the host oracle.
#include <cooperative_groups.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/dependent_launch.hpp"
#include "backends/cuda/loaded_code.hpp"
#include "backends/cuda/per_device.hpp"
#include "backends/cuda/emulation_path.hpp"
#include "backends/cuda/split_operand.hpp"
#include "backends/cuda/split_panel.cuh"
#include "backends/cuda/switches.hpp"
#include "egemm/errors.hpp"
#include "egemm/numerics/int8_digits.hpp"

namespace egemm::cuda {
namespace {

using namespace split_panel;

struct DigitOperands {
  OperandRows src[2];
  SplitOperand dst[2];
};

// Launch 1's panel: the row statistics (stats words and flags zero on entry).
__device__ __forceinline__ void row_maxima_of_panel(const OperandRows& src, const SplitOperand& dst,
                                                    std::uint32_t* any_nonfinite) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ Panel panel;
  float x[per_thread];
  stage_row_values(src, at, panel, x);
  RowStats stats;
#pragma unroll
  for (int v = 0; v < per_thread; ++v) stats.add(x[v]);
  stats.reduce_over_row_lanes();
  if (at.q != 0 || at.row >= dst.rows) return;
  if (stats.max_bits != 0) atomicMax(dst.max_abs_bits + at.row, stats.max_bits);
  if (stats.nonfinite) flag_nonfinite_row(dst, at.row, any_nonfinite);
}

// Four consecutive values' digit s, packed little-endian (value c in byte c).
__device__ __forceinline__ void pack_digits(const float* x, int e, std::uint32_t (&packed)[3]) {
  packed[0] = packed[1] = packed[2] = 0;
#pragma unroll
  for (int c = 0; c < per_chunk; ++c) {
    const numerics::Int8Digits d = numerics::int8_digits(x[c], e);
    packed[0] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d0)) << (8 * c);
    packed[1] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d1)) << (8 * c);
    packed[2] |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(d.d2)) << (8 * c);
  }
}

// A thread's 16 values of row `row` (panel at depth p0) as digits with
// exponent e: three 4-byte stores a quad of consecutive values.
__device__ __forceinline__ void write_digits(const float (&x)[per_thread], int e, const SplitOperand& dst, index_t row,
                                             index_t p0, int q) {
#pragma unroll
  for (int g = 0; g < chunks; ++g) {
    const index_t p = p0 + panel_column(q, g, 0);  // depth_pad is a multiple of the panel: no bound
    std::uint32_t packed[3];
    pack_digits(x + g * per_chunk, e, packed);
#pragma unroll
    for (int s = 0; s < 3; ++s)
      *reinterpret_cast<std::uint32_t*>(static_cast<std::uint8_t*>(dst.piece[s]) + row * dst.depth_pad + p) = packed[s];
  }
}

// Launch 2's panel: every element of the padded extent as digits (zeros
// outside src), each row's exponent written by its first k panel.
__device__ __forceinline__ void digits_of_panel(const OperandRows& src, const SplitOperand& dst) {
  const PanelPlace at;
  if (!at.inside(dst)) return;
  __shared__ Panel panel;
  float x[per_thread];
  stage_row_values(src, at, panel, x);
  const index_t row = at.row;
  const int e = row < dst.rows ? numerics::int8_row_exponent(numerics::bits_to_float(dst.max_abs_bits[row])) : 0;
  if (blockIdx.y == 0 && at.q == 0) dst.exponent[row] = e;
  write_digits(x, e, dst, row, at.p0, at.q);
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

// --- one read: a cluster holds a row panel's whole depth ----------------------

// Panels of k a block of the cluster holds at most (its slice), and the most
// blocks a cluster has (H100's non-portable cluster size): k up to 16 x 4 x
// 128 = 8192. Short slices let three blocks share an SM; with one block an SM
// (slices of 8-12 panels) the split ran at a third to a half of DRAM's
// bandwidth, slower than two reads (session 17, runs 6-8).
inline constexpr int cluster_slice_panels = 4;
inline constexpr int cluster_max_blocks = 16;
inline constexpr index_t cluster_split_max_depth = index_t{cluster_max_blocks} * cluster_slice_panels * panel_k;

// The split of one row panel by a cluster (blockIdx.x / cluster size: the
// row panel; the block's rank: its slice of `slice_panels` k panels, in
// dynamic shared memory). Every block of the cluster reaches both cluster
// barriers, whatever its slice holds (the last may be short or empty).
__device__ __forceinline__ void cluster_split_row_panel(const OperandRows& src, const SplitOperand& dst,
                                                        std::uint32_t* any_nonfinite, int slice_panels, Panel* slice,
                                                        std::uint32_t (&slice_max)[panel_rows]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank(), blocks = cluster.num_blocks();
  const index_t r0 = static_cast<index_t>(blockIdx.x / blocks) * panel_rows;
  const int first = static_cast<int>(rank) * slice_panels;
  const int held = max(0, min(slice_panels, static_cast<int>(dst.depth_pad / panel_k) - first));
  const int r = threadIdx.x / threads_per_row, q = threadIdx.x % threads_per_row;
  const index_t row = r0 + r;
  // The whole slice in flight at once (one panel at a time, each waited
  // for, left DRAM idle between them: the split ran at a third of its bandwidth).
  for (int j = 0; j < held; ++j) load_panel_async(src, r0, static_cast<index_t>(first + j) * panel_k, slice[j]);
  sm80::cp_async_commit();
  sm80::cp_async_wait<0>();
  __syncthreads();
  RowStats stats;
  for (int j = 0; j < held; ++j) {
    float x[per_thread];
    read_row_values(slice[j], r, q, x);
#pragma unroll
    for (int v = 0; v < per_thread; ++v) stats.add(x[v]);
  }
  stats.reduce_over_row_lanes();
  if (q == 0) slice_max[r] = stats.max_bits;
  if (q == 0 && stats.nonfinite && row < dst.rows) flag_nonfinite_row(dst, row, any_nonfinite);
  cluster.sync();  // every slice's maxima are in
  std::uint32_t max_bits = 0;
  for (unsigned b = 0; b < blocks; ++b) max_bits = max(max_bits, cluster.map_shared_rank(slice_max, b)[r]);
  cluster.sync();  // every block has read the others' maxima: none leaves while a peer reads its own
  const int e = row < dst.rows ? numerics::int8_row_exponent(numerics::bits_to_float(max_bits)) : 0;
  if (rank == 0 && q == 0) dst.exponent[row] = e;
  for (int j = 0; j < held; ++j) {
    float x[per_thread];
    read_row_values(slice[j], r, q, x);
    write_digits(x, e, dst, row, static_cast<index_t>(first + j) * panel_k, q);
  }
#else
  (void)src, (void)dst, (void)any_nonfinite, (void)slice_panels, (void)slice, (void)slice_max;
  __trap();  // the host launches it only where the code is sm_90's or newer (loaded_code.hpp)
#endif
}

// A cluster of `cluster_blocks` blocks per row panel (blockIdx.x / cluster_blocks).
__global__ void __launch_bounds__(split_threads) cluster_split_kernel(const DigitOperands ops, std::uint32_t* any_nonfinite,
                                                                      int cluster_blocks, int slice_panels) {
  extern __shared__ Panel slice[];
  __shared__ std::uint32_t slice_max[panel_rows];
  // The grid spans the larger operand: a whole cluster lies past the smaller one, or none of it.
  const index_t r0 = static_cast<index_t>(blockIdx.x) / cluster_blocks * panel_rows;
  if (blockIdx.z == 0) {
    if (r0 < ops.dst[0].rows_pad) cluster_split_row_panel(ops.src[0], ops.dst[0], any_nonfinite, slice_panels, slice, slice_max);
  } else {
    if (r0 < ops.dst[1].rows_pad) cluster_split_row_panel(ops.src[1], ops.dst[1], any_nonfinite, slice_panels, slice, slice_max);
  }
}

// The cluster split's shape for a padded depth: blocks per cluster and k
// panels per block (slices as short as up to cluster_max_blocks blocks make
// them), or 0 blocks where it does not apply (k too deep, no clusters before
// sm_90, or the GPU cannot place such a cluster).
struct ClusterSplitShape {
  int blocks = 0, slice_panels = 0;
  std::size_t smem() const { return static_cast<std::size_t>(slice_panels) * sizeof(Panel); }
};

// Per device, once: whether the GPU places a cluster of b blocks with the
// longest slices at all (a partitioned GPU may not), for b = 1 .. cluster_max_blocks.
using PlaceableClusters = std::array<bool, cluster_max_blocks + 1>;

PlaceableClusters placeable_clusters() {
  static PerDevice<PlaceableClusters> per_device;
  return per_device.get([](int) {
    const int smem = static_cast<int>(cluster_slice_panels * sizeof(Panel));
    EGEMM_CUDA_CHECK(cudaFuncSetAttribute(cluster_split_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    EGEMM_CUDA_CHECK(cudaFuncSetAttribute(cluster_split_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    PlaceableClusters placeable{};
    for (int blocks = 1; blocks <= cluster_max_blocks; ++blocks) {
      cudaLaunchConfig_t config{};
      config.gridDim = dim3(static_cast<unsigned>(blocks), 1, 1);
      config.blockDim = dim3(split_threads);
      config.dynamicSmemBytes = static_cast<std::size_t>(smem);
      cudaLaunchAttribute cluster = cluster_dimension_attribute(static_cast<unsigned>(blocks));
      config.attrs = &cluster;
      config.numAttrs = 1;
      int clusters = 0;
      EGEMM_CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, cluster_split_kernel, &config));
      placeable[blocks] = clusters > 0;
    }
    return placeable;
  });
}

ClusterSplitShape cluster_split_shape(index_t depth_pad) {
  // Code compiled for sm_90 or later has the kernel's body (sm_80 PTX the driver compiles for an H100 does not).
  if (depth_pad > cluster_split_max_depth || !loaded_code_has_grid_dependency_control()) return {};
  const int panels = static_cast<int>(depth_pad / panel_k);
  const int slice = (panels + cluster_max_blocks - 1) / cluster_max_blocks, blocks = (panels + slice - 1) / slice;
  return placeable_clusters()[blocks] ? ClusterSplitShape{blocks, slice} : ClusterSplitShape{};
}

}  // namespace

void launch_int8_slices_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                              const SplitOperand& b, std::uint32_t* any_nonfinite, cudaStream_t stream) {
  const DigitOperands ops{{a_src, b_src}, {a, b}};
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
  // The first kernel after the statistics' memset: plain launches.
  if (const ClusterSplitShape c = cluster_split_shape(depth_pad); c.blocks > 0 && switches().int8_cluster_split()) {
    const dim3 grid(static_cast<unsigned>(rows_pad / panel_rows * c.blocks), 1, 2);
    return launch_plain_clusters(cluster_split_kernel, grid, dim3(split_threads), c.smem(), stream,
                                 static_cast<unsigned>(c.blocks), ops, any_nonfinite, c.blocks, c.slice_panels);
  }
  const dim3 grid(static_cast<unsigned>(rows_pad / panel_rows), static_cast<unsigned>(depth_pad / panel_k), 2);
  launch_plain(row_maxima_kernel, grid, dim3(split_threads), 0, stream, ops, any_nonfinite);
  launch_dependent(digits_kernel, grid, split_threads, 0, stream, ops);
}

}  // namespace egemm::cuda
