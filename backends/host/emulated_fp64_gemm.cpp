// EmulatedFP64 on the CPU: the CUDA backend's algorithm step by step (row
// statistics, scales, residues, one int32 product per modulus, CRT
// reconstruction, float64 for special and wide rows, and the same hand-off
// rules, the sample's and the full counts': numerics/fp64_handoff.hpp), so it
// is the GPU's oracle.
#include <math.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "backends/host/host_gemm.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/float64_sum.hpp"
#include "egemm/numerics/fp64_handoff.hpp"

namespace egemm::host {
namespace {

namespace crt = numerics::crt;

// Rows of one operand (op(A) or op(B)^T): statistics, scale, flags, residues.
struct ResidueRows {
  index_t rows = 0, depth = 0;
  std::vector<crt::RowStats> stats;
  std::vector<int> scale;
  std::vector<char> nonfinite, wide;
  std::vector<signed char> residues;  // [modulus][row][depth]
  index_t wide_count = 0, nonfinite_count = 0;
  index_t sampled_flagged = 0;  // flagged rows of the sample (crt::in_sample)
  bool float64(index_t r) const { return nonfinite[r] != 0 || wide[r] != 0; }
  const signed char* residue_row(int l, index_t r) const { return residues.data() + (l * rows + r) * depth; }
};

crt::RowStats row_stats(const OperandRows64& x, index_t r) {
  crt::RowStats s{crt::zero_row_exponent, 0, 0, false};
  double largest = 0.0;
  for (index_t p = 0; p < x.depth; ++p) {
    const double v = x(r, p);
    if (!::isfinite(v)) {
      s.nonfinite = true;
      continue;
    }
    largest = ::fmax(largest, ::fabs(v));
  }
  if (largest == 0.0) return s;
  s.exponent = crt::value_exponent(largest);
  for (index_t p = 0; p < x.depth; ++p) {
    const double v = x(r, p);
    if (::isfinite(v)) crt::add_to_sums(v, s.exponent, s.squares, s.magnitudes);
  }
  return s;
}

template <int L>
void residues_of(const OperandRows64& x, index_t r, int s, signed char* out_base, index_t plane) {
  signed char* out = out_base + L * plane;
  for (index_t p = 0; p < x.depth; ++p) {
    const double v = x(r, p);
    out[p] = ::isfinite(v) ? crt::residue<L>(crt::scaled_integer(v, s)) : 0;
  }
}

template <int... L>
void all_residues(const OperandRows64& x, index_t r, int s, int moduli, signed char* out, index_t plane,
                  std::integer_sequence<int, L...>) {
  ((L < moduli ? residues_of<L>(x, r, s, out, plane) : void()), ...);
}

ResidueRows split(const OperandRows64& x, int moduli, int beta) {
  ResidueRows o;
  o.rows = x.rows;
  o.depth = x.depth;
  o.stats.resize(x.rows);
  o.scale.resize(x.rows);
  o.nonfinite.assign(x.rows, 0);
  o.wide.assign(x.rows, 0);
  o.residues.assign(static_cast<std::size_t>(moduli * x.rows * x.depth), 0);
  const index_t plane = x.rows * x.depth;
  const int spread = crt::spread_log2_for(moduli);
#pragma omp parallel for schedule(dynamic, 16)
  for (index_t r = 0; r < x.rows; ++r) {
    o.stats[r] = row_stats(x, r);
    o.scale[r] = crt::row_scale(o.stats[r], x.depth, beta);
    o.nonfinite[r] = o.stats[r].nonfinite ? 1 : 0;
    o.wide[r] = crt::row_too_wide(o.stats[r], x.depth, spread) ? 1 : 0;
    if (o.float64(r)) continue;  // its entries come from float64 sums
    all_residues(x, r, o.scale[r], moduli, o.residues.data() + r * x.depth, plane,
                 std::make_integer_sequence<int, crt::max_moduli>{});
  }
  for (index_t r = 0; r < x.rows; ++r) {
    o.wide_count += o.wide[r];
    o.nonfinite_count += o.nonfinite[r];
    if (o.float64(r) && crt::in_sample(r, x.rows)) ++o.sampled_flagged;
  }
  return o;
}

int dot(const signed char* a, const signed char* b, index_t k) {
  int s = 0;
  for (index_t p = 0; p < k; ++p) s += static_cast<int>(a[p]) * static_cast<int>(b[p]);
  return s;
}

template <int... L>
double reconstruct(const ResidueRows& A, index_t i, const ResidueRows& B, index_t j, const crt::Constants& c,
                   std::integer_sequence<int, L...>) {
  crt::Accumulator acc;
  ((L < c.moduli ? crt::accumulate<L>(acc, dot(A.residue_row(L, i), B.residue_row(L, j), A.depth), c) : void()), ...);
  return crt::reconstruct(acc, c);
}

}  // namespace

// C(i, j) = alpha * sum_p op(A)(i, p) op(B)(p, j) + beta C(i, j), the sum
// in float64 (numerics/float64_sum.hpp), for entries whose row or column
// holds Inf/NaN or spreads too far for the moduli, or whose products may
// overflow (the CUDA backend's float64 kernels do the same operations).
void float64_entry(const GemmArgs64& g, index_t i, index_t j) {
  const OperandRows64 a = g.a_rows(), b = g.b_cols();
  const double s = numerics::float64_dot(a.base + i * a.row_stride, a.depth_stride, b.base + j * b.row_stride,
                                         b.depth_stride, g.k);
  double* c = g.c + g.c_offset(i, j);
  *c = crt::alpha_beta(s, g.alpha, g.beta, c);
}

void gemm(PolicyId policy, const GemmArgs64& g) {
  if (policy != PolicyId::emulated_fp64)
    throw unsupported(std::string("egemm host backend: no double-precision algorithm for policy ") + policy_name(policy));
  if (g.k > crt::max_depth) {
    log_debug([&] { return "host EmulatedFP64 " + describe(g) + " -> float64 (k beyond the moduli's exact int32 sums)"; });
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i) float64_entry(g, i, j);
    return;
  }
  const int moduli = crt::moduli_for_calls();
  const crt::Constants constants = crt::make_constants(moduli);
  const ResidueRows A = split(g.a_rows(), moduli, constants.beta);
  const ResidueRows B = split(g.b_cols(), moduli, constants.beta);
  const index_t flagged_a = A.wide_count + A.nonfinite_count, flagged_b = B.wide_count + B.nonfinite_count;
  if (crt::call_hands_off(g.m, g.n, A.sampled_flagged, B.sampled_flagged, flagged_a, flagged_b)) {
    // Where the GPU runs cuBLAS DGEMM: every entry a float64 sum, the host's DGEMM.
    log_debug([&] {
      const std::string head = "host EmulatedFP64 " + describe(g) + " -> native_fp64 (";
      if (crt::sample_hands_off(g.m, g.n, A.sampled_flagged, B.sampled_flagged))
        return head + std::to_string(A.sampled_flagged) + " of " + std::to_string(crt::sample_size(g.m)) +
               " sampled rows of op(A), " + std::to_string(B.sampled_flagged) + " of " +
               std::to_string(crt::sample_size(g.n)) + " sampled columns of op(B) flagged: handed off on the sample)";
      return head + std::to_string(A.wide_count) + " wide rows of op(A), " + std::to_string(B.wide_count) +
             " wide columns of op(B), " + std::to_string(A.nonfinite_count + B.nonfinite_count) +
             " with Inf/NaN: handed off)";
    });
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i) float64_entry(g, i, j);
    return;
  }
  log_debug([&] {
    return "host EmulatedFP64 " + describe(g) + " -> " + std::to_string(moduli) + " moduli, float64 for " +
           std::to_string(A.wide_count) + " wide rows of op(A), " + std::to_string(B.wide_count) +
           " wide columns of op(B), " + std::to_string(A.nonfinite_count + B.nonfinite_count) + " with Inf/NaN";
  });
#pragma omp parallel for schedule(dynamic)
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      if (A.float64(i) || B.float64(j) || crt::products_may_overflow(A.stats[i].exponent, B.stats[j].exponent, g.k)) {
        float64_entry(g, i, j);
        continue;
      }
      const double v = reconstruct(A, i, B, j, constants, std::make_integer_sequence<int, crt::max_moduli>{});
      double* c = g.c + g.c_offset(i, j);
      *c = crt::alpha_beta(crt::unscale(v, -(A.scale[i] + B.scale[j])), g.alpha, g.beta, c);
    }
}

void scale_c(const GemmArgs64& g) {
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      double* c = g.c + g.c_offset(i, j);
      *c = g.beta == 0.0 ? 0.0 : g.beta * *c;
    }
}

}  // namespace egemm::host
