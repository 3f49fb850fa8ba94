// EmulatedFP32's per-call path choice (egemm/path_selection.hpp) made on the
// device: the split gathers each row's range as it splits, path_choice_kernel
// folds every row's verdict into one word (and lists the wide rows), its last
// block settling it (too many wide rows: not the FP16 path; else the listed
// rows are flagged for float64), and each later kernel reads that word and
// runs only if its path was chosen (split_operand.hpp has the sequence). No
// host read, so the call stays asynchronous.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/route/outlier_state.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::cuda {

// Bits of the path word: some row of op(A) or column of op(B) does not fit.
inline constexpr std::uint32_t path_not_fp16_scaled = 1u;
inline constexpr std::uint32_t path_not_tf32 = 2u;
// NormwiseFP32 (int8_route.hpp): every row holds Int8Slices' digits, which
// run; every kernel of EmulatedFP32's sequence behind them exits at once.
inline constexpr std::uint32_t path_int8_digits = 4u;
// EmulatedFP32: some row of op(A) or column of op(B) takes the outlier route
// (numerics/outliers.hpp); on the FP16 path the special entries' pass adds
// the routed outliers' products. The path itself is read from the bits above.
inline constexpr std::uint32_t path_sparse_outliers = 8u;

// choose_emulation_path over the reduced verdict bits, or NormwiseFP32's digits.
__host__ __device__ inline EmulationPath path_from_word(std::uint32_t word) {
  if ((word & path_int8_digits) != 0) return EmulationPath::int8_digits;
  return choose_emulation_path((word & path_not_fp16_scaled) == 0, (word & path_not_tf32) == 0);
}

// Whether a kernel of NormwiseFP32's digits (`digits`) or of EmulatedFP32's
// sequence (not `digits`) runs: always without a path word.
__device__ __forceinline__ bool route_taken(const std::uint32_t* word, bool digits) {
  return word == nullptr || ((*word & path_int8_digits) != 0) == digits;
}

// Bits of a row's flag word (SplitOperand::nonfinite): the row holds Inf or
// NaN (its entries are recomputed as FP32 gemm does), or it is a wide row the
// FP16 path recomputes in float64. The fused kernel skips entries with
// either bit; the flags are set before it runs.
inline constexpr std::uint32_t row_nonfinite = 1u;
inline constexpr std::uint32_t row_recomputed = 2u;

// A kernel gated on a path runs when `word` is null (no choice to make) or names `path`.
__device__ __forceinline__ bool path_selected(const std::uint32_t* word, EmulationPath path) {
  return word == nullptr || path_from_word(*word) == path;
}

}  // namespace egemm::cuda
