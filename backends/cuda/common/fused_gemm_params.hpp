// The fused tensor-core gemm over split operands (see split_operand.hpp):
// every product term of the policy, the per-k-step fold, the correction
// accumulator and the epilogue in one kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/split/split_operand.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

struct FusedGemmParams {
  const void* a[max_pieces];  // op(A) pieces, rows_pad x k_pad, k contiguous
  const void* b[max_pieces];  // op(B)^T pieces, likewise
  index_t k_pad;     // in elements
  const int* a_exponent;  // per row of op(A) / column of op(B): the split's power-of-two scale
  const int* b_exponent;
  const std::uint32_t* a_nonfinite;  // rows/columns the special-value pass recomputes: left alone here
  const std::uint32_t* b_nonfinite;
  const std::uint32_t* path_word;  // EmulatedFP32: run only if the device chose `path`; null: always run
  EmulationPath path;
  int tiles_m, tiles_n;  // block tiles of C; the grid is 1-D, in grouped order (see tile_order)
  int raster_group;      // m-tiles (pairs of them in clusters) per group of tile_order
  index_t m, n;
  float alpha, beta;
  float* c;
  index_t ldc;
  bool c_through_tma;  // the Hopper kernel stages C in shared memory for TMA stores (else writes it from registers)
};

// The kernel parameters every fused kernel takes: pieces, scales, flags, C,
// and a bm x bn tile grid over the padded rows (throws when the grid would
// exceed one launch's blocks or 32-bit rows).
FusedGemmParams fused_gemm_params(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                                  const std::uint32_t* path_word, EmulationPath path, index_t bm, index_t bn);

// C = alpha * op(A) op(B) + beta C by `policy`'s pieces and products (every
// policy but NativeFP32; FullRangeTF32x3 runs the TF32 kernel). With a path
// word, the kernel runs only when the device-side choice matches `path`.
// The kernel's scratch (the Hopper kernel's stream-K partial sums) comes from
// `scratch`; with a carver that only measures, nothing is launched and the
// bytes are counted (see WorkspaceCarver).
void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, WorkspaceCarver& scratch,
                       cudaStream_t stream);

// The same with scratch of its own, allocated on `stream` (the benchmarks'
// launches of the kernel alone).
void launch_fused_gemm(PolicyId policy, const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                       const std::uint32_t* path_word, EmulationPath path, cudaStream_t stream);

// Which kernel launch_fused_gemm runs for `policy` on `path` on the current
// device. On an sm_90 GPU whose binary has sm_90a code: the TMA + wgmma
// kernel (backends/cuda/sm90/), FP16 and TF32 pieces alike;
// EGEMM_SM90_KERNEL=0 forces the mma.sync kernel. Everything else: mma.sync.
enum class FusedKernel { mma_sync_sm80, wgmma_tma_sm90 };
FusedKernel fused_kernel_for(PolicyId policy, EmulationPath path);

// Whether EmulatedFP32's `kernel` (the one fused_kernel_for picks for its FP16
// path) has at least one full wave of blocks for an m x n C on the current device. Below that, the tensor cores idle on most
// SMs and cuBLAS SGEMM is faster (H100: 0.72x at 1024^3 with 128 blocks for
// 264 slots, 1.07x at 2048^3 with 512; perf_tests/results/2026-11-22-h100-final.md),
// so EmulatedFP32 runs SGEMM there: FP32 accuracy either way.
bool emulated_fp32_fills_the_gpu(FusedKernel kernel, index_t m, index_t n);

}  // namespace egemm::cuda
