// An operand split into its pieces and packed into k-major panels of `width`
// rows, the layout the host micro-kernel streams through. Also records what
// the device split pass records: each row's power-of-two scale and whether
// the row holds a non-finite value.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

namespace egemm::host {

struct PackedOperand {
  index_t rows = 0, depth = 0, panels = 0;
  int width = 0, pieces = 0;
  std::vector<float> data;                // [piece][panel][depth][width], rows past `rows` are zero
  std::vector<int> exponent;              // row r was multiplied by 2^-exponent[r] before the split
  std::vector<std::uint8_t> nonfinite;    // row r holds Inf or NaN
  // EmulatedFP32's sparse outliers: row r's routed ones (depth, value), in
  // depth order, zero in the pieces; empty for a row that keeps them.
  std::vector<std::vector<std::pair<index_t, float>>> outliers;

  const float* panel(int piece, index_t q) const {
    return data.data() + ((static_cast<index_t>(piece) * panels + q) * depth) * width;
  }
  bool any_nonfinite() const;
};

// Splits every element of `src` by `rule` (pieces stored as the floats they
// represent). With `scale_rows`, each row is first scaled by the power of two
// EmulatedFP32 picks for it (emulated_fp32_row_exponent): its largest finite
// magnitude lands in [2^11, 2^15), and a row that takes the outlier route
// (egemm/path_selection.hpp) has its outliers zeroed and listed.
PackedOperand pack_operand(const OperandRows& src, int width, SplitRule rule, bool scale_rows);

}  // namespace egemm::host
