// What every fused tensor-core gemm over split operands (split_operand.hpp)
// takes: the kernel parameters, one launch's arguments, a kernel's footprint.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/runtime/workspace.hpp"
#include "backends/cuda/split/split_operand.hpp"
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

// One launch of a fused kernel: the split operands, the call, the path word
// and path it runs under, the scratch it may take, the stream.
struct FusedLaunch {
  const SplitOperand& a;
  const SplitOperand& b;
  const GemmArgs& g;
  const std::uint32_t* path_word;  // run only if the device chose `path`; null: always run
  EmulationPath path;
  WorkspaceCarver& scratch;  // the Hopper kernel's stream-K partial sums; measuring: launch nothing
  cudaStream_t stream;
};

// The tile of C one block of a kernel covers, and how many blocks share an SM.
struct KernelFootprint {
  int bm, bn, blocks_per_sm;
};

}  // namespace egemm::cuda
