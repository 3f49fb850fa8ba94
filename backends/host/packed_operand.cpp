// Splits an operand into its pieces and packs them into the micro-kernel's k-major panels.
#include "backends/host/packed_operand.hpp"

#include <algorithm>
#include <cmath>

#include "egemm/numerics/outliers.hpp"
#include "egemm/numerics/split.hpp"
#include "egemm/numerics/tf32.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::host {

bool PackedOperand::any_nonfinite() const {
  return std::any_of(nonfinite.begin(), nonfinite.end(), [](std::uint8_t f) { return f != 0; });
}

PackedOperand pack_operand(const OperandRows& src, int width, SplitRule rule, bool scale_rows) {
  PackedOperand out;
  out.rows = src.rows;
  out.depth = src.depth;
  out.width = width;
  out.panels = (src.rows + width - 1) / width;
  out.pieces = (rule == SplitRule::none || rule == SplitRule::round_hi_only) ? 1 : 2;
  out.data.assign(static_cast<std::size_t>(out.pieces * out.panels * out.depth * width), 0.0f);
  out.exponent.assign(static_cast<std::size_t>(src.rows), 0);
  out.nonfinite.assign(static_cast<std::size_t>(src.rows), 0);
  out.outliers.assign(static_cast<std::size_t>(src.rows), {});
  const index_t piece_stride = out.panels * out.depth * width;

#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < src.rows; ++r) {
    bool nonfinite = false;
    for (index_t p = 0; p < src.depth; ++p) nonfinite = nonfinite || !numerics::is_finite(src(r, p));
    const int e = scale_rows ? emulated_fp32_row_exponent(src, r) : 0;
    out.exponent[r] = e;
    out.nonfinite[r] = nonfinite;
    // A routed row's outliers leave its pieces for the float64 pass.
    std::uint32_t drop_bits = 0x7f800000u;  // nothing finite reaches it
    if (scale_rows && emulated_fp32_routes_outliers(src, r)) drop_bits = numerics::float_bits(row_outliers(src, r).threshold);

    float* dst = out.data.data() + (r / width) * out.depth * width + r % width;
    for (index_t p = 0; p < src.depth; ++p) {
      float x = e != 0 ? numerics::scale_by_pow2(src(r, p), -e) : src(r, p);
      if (numerics::is_outlier_candidate(src(r, p), drop_bits)) {
        out.outliers[r].emplace_back(p, src(r, p));
        x = 0.0f;
      }
      float* slot = dst + p * width;
      if (rule == SplitRule::none) {
        slot[0] = x;
        continue;
      }
      if (rule == SplitRule::tf32) {
        const numerics::Tf32Pieces pieces = numerics::split_to_tf32(x);
        slot[0] = pieces.big;
        slot[piece_stride] = pieces.small;
        continue;
      }
      const numerics::HalfPieces pieces = numerics::split_to_half(x, rule);
      slot[0] = numerics::half_bits_to_float(pieces.hi);
      if (out.pieces == 2) slot[piece_stride] = numerics::half_bits_to_float(pieces.lo);
    }
  }
  return out;
}

}  // namespace egemm::host
