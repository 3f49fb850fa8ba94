// The device form of a split operand, written by the split kernels and read
// by the fused gemm: op(A) (or op(B)^T) as rows_pad x depth_pad pieces (FP16,
// or TF32 in float storage), k contiguous, zero padded to tile multiples so
// the gemm's main loop needs no bounds checks; plus what the stats pass
// learns about each row.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

struct SplitOperand {
  void* piece[2] = {nullptr, nullptr};  // hi, lo (lo unused by one-piece rules)
  index_t rows = 0, depth = 0;          // the logical extent
  index_t rows_pad = 0, depth_pad = 0;  // the stored extent, in elements
  // Stats, [rows] each, zero on entry to the stats pass:
  std::uint32_t* max_abs_bits = nullptr;     // bits of the largest finite |x| (|x| bits order like |x|)
  std::uint32_t* min_abs_inv_bits = nullptr; // ~bits of the smallest nonzero finite |x| (0: none)
  std::uint32_t* nonfinite = nullptr;        // row flags: row_nonfinite, row_recomputed (emulation_path.hpp)
  std::uint32_t* wide_count = nullptr;       // EmulatedFP32: rows that do not fit the scaled FP16 split
  std::uint32_t* wide_list = nullptr;        // ... the first max_recomputed_rows(rows) of them
  int* exponent = nullptr;                   // [rows_pad] the row was scaled by 2^-exponent before the split
};

// The stats pass: per row of `src`, max and min nonzero finite |x| and the
// non-finite flag; a nonzero *any_nonfinite when some row holds Inf or NaN.
void launch_row_stats(const OperandRows& src, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                      cudaStream_t stream);

// The split pass: every element of the padded extent into dst's pieces by
// `rule` (zeros outside `src`), rows first scaled by 2^-range_exponent(max)
// when `scale_rows`; also writes dst.exponent. With a path word
// (EmulatedFP32), the path chosen on the device decides: fp16_scaled splits by
// `rule`, tf32_full_range by SplitRule::tf32 without scaling, native_fp32
// writes nothing. Scaling and a path word need the stats pass first; without
// them, a non-null `any_nonfinite` has the split record the non-finite flags
// itself (dst.nonfinite and *any_nonfinite, zero on entry) and no stats pass is needed.
void launch_split(const OperandRows& src, SplitRule rule, bool scale_rows, const SplitOperand& dst,
                  const std::uint32_t* path_word, std::uint32_t* any_nonfinite, cudaStream_t stream);

// launch_split of op(A) into `a` and op(B)^T into `b` in one launch.
void launch_split_both(const OperandRows& a_src, const OperandRows& b_src, SplitRule rule, bool scale_rows,
                       const SplitOperand& a, const SplitOperand& b, const std::uint32_t* path_word,
                       std::uint32_t* any_nonfinite, cudaStream_t stream);

// EmulatedFP32's whole split of op(A) and op(B)^T as its gemm runs it (stats
// words, *path_word, *verdict_blocks and *any_nonfinite zero on entry), three
// launches: the stats pass of both operands; the path choice (every row's
// range verdict folded into *path_word, the wide rows counted and listed; its
// blocks count themselves on *verdict_blocks and the last settles: more than
// max_recomputed_rows in either operand rule the FP16 path out, otherwise the
// listed rows are flagged for float64 recomputation); the split of both by
// the chosen path.
void launch_emulated_fp32_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                                const SplitOperand& b, std::uint32_t* path_word, std::uint32_t* verdict_blocks,
                                std::uint32_t* any_nonfinite, cudaStream_t stream);

}  // namespace egemm::cuda
