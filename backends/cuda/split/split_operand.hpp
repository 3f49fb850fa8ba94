// The device form of a split operand, written by the split kernels and read
// by the fused gemm: op(A) (or op(B)^T) as rows_pad x depth_pad pieces (FP16,
// or TF32 in float storage), k contiguous, zero padded to tile multiples so
// the gemm's main loop needs no bounds checks; plus what the split learns
// about each row.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "backends/cuda/sm80/tile_config.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/policy.hpp"

namespace egemm::cuda {

// The most pieces an operand is split into (Int8Slices' three digits).
inline constexpr int max_pieces = 3;

// Where Int8Slices' split writes NormwiseFP32's column sums: c_p, z_p and
// n_p of each 32-row panel (numerics/int8_cross_rule.hpp), or nowhere.
// Indexed by (row panel, p), row panel after row panel, but for
// row_panel_weights. Where all 32 rows of a panel count at p (the usual
// case) n_p is 32 and z_p the sum of the panel's 4^e over its rows, the
// same at every p: the split writes that once a row panel and c_p alone at
// (row panel, p); where some row does not count it writes -c_p (the sign
// bit set, -0.0 for 0), n_p and z_p. So the cross kernel reads 8 bytes a
// (row panel, p) and its panel's weight, and n_p and z_p only where the
// sign says (where there were 17 bytes, then 9 read after 1).
struct ColumnSumsOut {
  double* squares = nullptr;            // c_p, negated where n_p < 32
  double* weights = nullptr;            // z_p, where n_p < 32
  std::uint8_t* nonzeros = nullptr;     // n_p, where n_p < 32
  double* row_panel_weights = nullptr;  // [rows_pad / 32]: z_p where n_p = 32
  __host__ __device__ bool wanted() const { return squares != nullptr; }
};

struct SplitOperand {
  void* piece[max_pieces] = {nullptr, nullptr, nullptr};  // hi, lo, lowest (as many as the rule has)
  index_t rows = 0, depth = 0;          // the logical extent
  index_t rows_pad = 0, depth_pad = 0;  // the stored extent, in elements
  // Statistics words, zero on entry (split_stats_words of them, place_split_stats):
  std::uint32_t* max_abs_bits = nullptr;     // [rows] bits of the largest finite |x| (|x| bits order like |x|)
  std::uint32_t* min_abs_inv_bits = nullptr; // [rows] ~bits of the smallest nonzero finite |x| (0: none)
  std::uint32_t* nonfinite = nullptr;        // [rows] row flags: row_nonfinite, row_recomputed (emulation_path.hpp)
  std::uint32_t* wide_count = nullptr;       // EmulatedFP32: rows that do not fit the scaled FP16 split
  std::uint32_t* wide_list = nullptr;        // ... the first max_recomputed_rows(rows) of them
  // EmulatedFP32's second split (resplit_plan.hpp): [rows], from the front
  // the rows whose guessed exponent did not hold (resplit_count of them, split
  // again from the operand), from the back the routed rows whose guess held
  // (outlier_zero_count of them, only their outliers' pieces zeroed)
  std::uint32_t* resplit_list = nullptr;
  std::uint32_t* resplit_count = nullptr;
  std::uint32_t* outlier_zero_count = nullptr;
  // ... the rows split again by 32-row panel (a bit a row, [row panels]) and
  // the 8-row groups holding one ([4 row panels], resplit_group_count of them)
  std::uint32_t* resplit_panel_rows = nullptr;
  std::uint32_t* resplit_groups = nullptr;
  std::uint32_t* resplit_group_count = nullptr;
  std::uint32_t* known_wide = nullptr;       // EmulatedFP32: [rows] 1 once one panel of the row shows it wide
  std::uint32_t* known_wide_count = nullptr; // ... how many rows are
  std::uint32_t* panel_arrivals = nullptr;   // Int8Slices: [row panels] k panels whose maxima are in (int8_split.cu)
  std::uint32_t* row_weight = nullptr;       // Int8Slices: [rows] sum of |N| / 256 (numerics::int8_row_weight)
  // EmulatedFP32's sparse outliers (numerics/outliers.hpp). Its max_abs_bits
  // is the largest finite |x| below the row's candidate threshold (the bulk's),
  // and the candidates' largest is kept apart, so that a row without
  // candidates costs no atomic more than before.
  std::uint32_t* outlier_max_bits = nullptr; // [rows] bits of the candidates' largest |x|
  std::uint32_t* outlier_state = nullptr;    // [rows] candidates counted (and slotted); outlier_routed once routed
  std::uint32_t* outlier_lines = nullptr;    // how many rows are routed
  // Not statistics (no zeroing): EmulatedFP32's [split_panels(*this)] 1 where
  // the split wrote the panel's TF32 pieces rather than FP16 ones.
  std::uint32_t* panel_in_tf32 = nullptr;
  int* exponent = nullptr;                   // [rows_pad] the row was scaled by 2^-exponent before the split
  // Not statistics either: EmulatedFP32's [rows_pad] candidate thresholds (as
  // bits, written by the split's first k panel) and [rows_pad x
  // numerics::outlier_slots] candidates, (depth, value bits) pairs, the first
  // of each row in arrival order, sorted by depth once the row is routed.
  std::uint32_t* outlier_threshold_bits = nullptr;
  uint2* outlier_slots = nullptr;
  // Not statistics either (the digits' split writes every entry): NormwiseFP32's
  // column sums, per 32-row panel and depth index (row panel * depth_pad + p),
  // over the panel's rows (numerics/int8_cross_rule.hpp); null where not wanted.
  ColumnSumsOut column_sums;
};

// k is padded to a multiple of the kernels' k-tile: split_depth_multiple
// values for FP16 and TF32 pieces, a 128-byte k-tile of Int8Slices' digits.
inline constexpr index_t split_depth_multiple_for(SplitRule rule) {
  return rule == SplitRule::int8_digits ? 128 : split_depth_multiple;
}

// The split's panels: 32 rows x 128 k, row panel after row panel.
inline constexpr int split_panel_rows = 32;
inline constexpr int split_panel_k = 128;
// The split's k panels are its grid's y dimension: the deepest k it takes.
inline constexpr index_t split_max_depth = index_t{65535} * split_panel_k;
// The kernels count padded rows in 32-bit ints: the most rows (m or n) they take.
inline constexpr index_t split_max_rows = (index_t{1} << 31) - split_row_multiple;
__host__ __device__ inline index_t split_k_panels(const SplitOperand& op) {
  return (op.depth_pad + split_panel_k - 1) / split_panel_k;
}
__host__ __device__ inline index_t split_panels(const SplitOperand& op) {
  return op.rows_pad / split_panel_rows * split_k_panels(op);
}

// An operand's FP16 and TF32 pieces share one buffer per piece, element e at
// byte 2e or 4e, so FP16 pieces written over a panel's TF32 pieces land in
// other rows and depths. Calls visit(row panel, k panel) for every FP16
// panel whose bytes overlap those of TF32 row `row`, depths [k0, k1): such a
// TF32 panel must be written again if one of them went out in FP16.
template <class Visit>
__host__ __device__ inline void fp16_panels_over_tf32_row(const SplitOperand& op, index_t row, index_t k0, index_t k1,
                                                         Visit&& visit) {
  const index_t dp = op.depth_pad, first = 2 * (row * dp + k0), end = 2 * (row * dp + k1);  // FP16 elements
  for (index_t r = first / dp; r * dp < end && r < op.rows_pad; ++r) {
    const index_t ka = (first > r * dp ? first : r * dp) - r * dp;
    const index_t kb = (end < (r + 1) * dp ? end : (r + 1) * dp) - r * dp;
    for (index_t kp = ka / split_panel_k; kp * split_panel_k < kb; ++kp) visit(r / split_panel_rows, kp);
  }
}

// The row panels of an operand of `rows` rows (its rows padded to split_row_multiple).
inline index_t split_row_panels(index_t rows) {
  return (rows + split_row_multiple - 1) / split_row_multiple * (split_row_multiple / split_panel_rows);
}

// How many statistics words an operand of `rows` rows takes.
inline index_t split_stats_words(index_t rows) {
  return 8 * rows + 6 + max_recomputed_rows(rows) + 6 * split_row_panels(rows);
}

// Points op's statistics at `words` (split_stats_words(op.rows) of them);
// returns the first word after them.
inline std::uint32_t* place_split_stats(SplitOperand& op, std::uint32_t* words) {
  op.max_abs_bits = words;
  op.min_abs_inv_bits = words + op.rows;
  op.nonfinite = words + 2 * op.rows;
  op.resplit_list = words + 3 * op.rows;
  op.known_wide = words + 4 * op.rows;
  op.wide_count = words + 5 * op.rows;
  op.resplit_count = words + 5 * op.rows + 1;
  op.known_wide_count = words + 5 * op.rows + 2;
  op.wide_list = words + 5 * op.rows + 3;
  op.panel_arrivals = op.wide_list + max_recomputed_rows(op.rows);
  op.row_weight = op.panel_arrivals + split_row_panels(op.rows);
  op.outlier_max_bits = op.row_weight + op.rows;
  op.outlier_state = op.outlier_max_bits + op.rows;
  op.outlier_lines = op.outlier_state + op.rows;
  op.outlier_zero_count = op.outlier_lines + 1;
  op.resplit_panel_rows = op.outlier_zero_count + 1;
  op.resplit_groups = op.resplit_panel_rows + split_row_panels(op.rows);
  op.resplit_group_count = op.resplit_groups + 4 * split_row_panels(op.rows);
  return words + split_stats_words(op.rows);
}

// The split of a policy that does not scale rows: every element of the
// padded extent into dst's pieces by `rule` (zeros outside `src`, exponents
// 0). A non-null `any_nonfinite` has it record the non-finite flags too
// (dst.nonfinite and *any_nonfinite, zero on entry).
void launch_split(const OperandRows& src, SplitRule rule, const SplitOperand& dst, std::uint32_t* any_nonfinite,
                  cudaStream_t stream);

// launch_split of op(A) into `a` and op(B)^T into `b` in one launch.
void launch_split_both(const OperandRows& a_src, const OperandRows& b_src, SplitRule rule, const SplitOperand& a,
                       const SplitOperand& b, std::uint32_t* any_nonfinite, cudaStream_t stream);

// EmulatedFP32's whole split of op(A) and op(B)^T as its gemm runs it
// (statistics words, *path_word, *verdict_blocks and *any_nonfinite zero on
// entry), three launches:
//  1. the split of both by round_scaled_lo, each row scaled by an exponent
//     guessed from its first values (numerics/row_exponent.hpp), gathering
//     each row's statistics on the way (largest and smallest nonzero finite
//     |x|, Inf/NaN): the operands are read once. Once more rows are known
//     wide (one panel suffices to show it) than the FP16 path recomputes,
//     that path is out: *path_word says so at once and the blocks that start
//     after it write TF32 pieces (marked in panel_in_tf32);
//  2. the path choice: every row's range verdict folded into *path_word, the
//     wide rows counted and listed; rows whose guess did not hold get their
//     exact exponent and are listed for a second split; the blocks count
//     themselves on *verdict_blocks and the last settles (more than
//     max_recomputed_rows wide rows in either operand rule the FP16 path
//     out, otherwise the listed wide rows are flagged for float64);
//  3. the second split, by the chosen path: on the FP16 path the rows whose
//     guess failed again, and only the outliers' pieces of the other routed
//     rows, zeroed (resplit_plan.hpp); the panels not yet in TF32 pieces
//     (full range); or nothing (native).
// behind_route: NormwiseFP32's fallback, which the route's word usually
// tells to leave at once: step 1 by a grid the SMs hold, walking the panels.
void launch_emulated_fp32_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                                const SplitOperand& b, std::uint32_t* path_word, std::uint32_t* verdict_blocks,
                                std::uint32_t* any_nonfinite, cudaStream_t stream, bool behind_route = false);

// Int8Slices' split of op(A) and op(B)^T into three digit pieces (1 byte an
// element), each row with its exact exponent, and each row's largest finite
// |x|, Inf/NaN flag and weight on the way, and the column sums where
// column_sums are wanted (NormwiseFP32's statistics; statistics words,
// *any_nonfinite and *tickets zero on entry): one launch that reads the operands once from
// DRAM (the lagged split, int8_split.cu), or two (row maxima, then digits)
// where its tickets would not fit or the tuning asks for two (int8_one_read_split). Depths
// padded to the panel.
void launch_int8_slices_split(const OperandRows& a_src, const OperandRows& b_src, const SplitOperand& a,
                              const SplitOperand& b, std::uint32_t* any_nonfinite, std::uint32_t* tickets,
                              cudaStream_t stream);

}  // namespace egemm::cuda
