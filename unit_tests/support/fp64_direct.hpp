// EmulatedFP64 without the moduli: the same scaled integers X (same row
// statistics and scales), their product summed directly in 128-bit integers,
// rounded and unscaled as the library does. Equal bit for bit to the
// library's result wherever the residues, the INT8 products and the CRT
// reconstruction are right: the tests' independent check of those. Calls the
// hand-off rule sends to DGEMM are the host's float64 sums in every entry.
#pragma once

#include <cmath>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/float64_sum.hpp"
#include "egemm/numerics/fp64_handoff.hpp"
#include "support/fp64_exact.hpp"

namespace egemm::test {

struct DirectRows {
  std::vector<numerics::crt::RowStats> stats;
  std::vector<int> scale;
  std::vector<char> float64;
  index_t flagged = 0;  // rows with float64 set
  index_t sampled_flagged = 0;  // of them in the hand-off's sample (crt::in_sample)
};

inline DirectRows direct_rows(const OperandRows64& x, int moduli) {
  namespace crt = numerics::crt;
  DirectRows d;
  const int beta = crt::norm_bits(moduli);
  for (index_t r = 0; r < x.rows; ++r) {
    crt::RowStats s{crt::zero_row_exponent, 0, 0, false};
    double largest = 0.0;
    for (index_t p = 0; p < x.depth; ++p) {
      if (!std::isfinite(x(r, p))) s.nonfinite = true;
      else largest = std::fmax(largest, std::fabs(x(r, p)));
    }
    if (largest > 0.0) {
      s.exponent = crt::value_exponent(largest);
      for (index_t p = 0; p < x.depth; ++p)
        if (std::isfinite(x(r, p))) crt::add_to_sums(x(r, p), s.exponent, s.squares, s.magnitudes);
    }
    d.stats.push_back(s);
    d.scale.push_back(crt::row_scale(s, x.depth, beta));
    d.float64.push_back(s.nonfinite || crt::row_too_wide(s, x.depth, crt::spread_log2_for(moduli)) ? 1 : 0);
    d.flagged += d.float64.back();
    if (d.float64.back() != 0 && crt::in_sample(r, x.rows)) ++d.sampled_flagged;
  }
  return d;
}

// Whether the call runs DGEMM (every entry a float64 sum): the sample's rule or the full counts'.
inline bool hands_off(const GemmArgs64& g, const DirectRows& A, const DirectRows& B) {
  return numerics::crt::call_hands_off(g.m, g.n, A.sampled_flagged, B.sampled_flagged, A.flagged, B.flagged);
}

// What EmulatedFP64 gives for C(i, j) (c_in: C's value before the call).
inline double direct_entry(const GemmArgs64& g, const DirectRows& A, const DirectRows& B, index_t i, index_t j,
                           double c_in) {
  namespace crt = numerics::crt;
  const OperandRows64 a = g.a_rows(), b = g.b_cols();
  const DotOperands d = dot_operands(g);
  if (hands_off(g, A, B) || A.float64[i] || B.float64[j] ||
      crt::products_may_overflow(A.stats[i].exponent, B.stats[j].exponent, g.k))
    return crt::alpha_beta(numerics::float64_dot(d.a_of(i), d.a_step, d.b_of(j), d.b_step, g.k), g.alpha, g.beta,
                           &c_in);
  __int128 sum = 0;
  for (index_t p = 0; p < g.k; ++p)
    sum += static_cast<__int128>(crt::scaled_integer(a(i, p), A.scale[i])) *
           static_cast<__int128>(crt::scaled_integer(b(j, p), B.scale[j]));
  const bool negative = sum < 0;
  const unsigned __int128 mag = negative ? static_cast<unsigned __int128>(-sum) : static_cast<unsigned __int128>(sum);
  uint32_t limbs[4];
  for (int t = 0; t < 4; ++t) limbs[t] = static_cast<uint32_t>(mag >> (32 * t));
  double v = crt::magnitude_to_double(limbs);
  if (negative) v = -v;
  return crt::alpha_beta(crt::unscale(v, -(A.scale[i] + B.scale[j])), g.alpha, g.beta, &c_in);
}

}  // namespace egemm::test
