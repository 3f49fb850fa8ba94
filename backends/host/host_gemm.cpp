// The host backend's policies: split, pack, multiply tile by tile, then the wide-row and special-value passes.
#include "backends/host/host_gemm.hpp"

#include <math.h>

#include <algorithm>
#include <vector>

#include "backends/host/int8_slices_gemm.hpp"
#include "backends/host/micro_kernel.hpp"
#include "backends/host/outlier_entry.hpp"
#include "backends/host/packed_operand.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/epilogue.hpp"
#include "egemm/numerics/outliers.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::host {
namespace {

constexpr int MR = 4;
constexpr int NR = 8;

// C(i, j) = alpha * sum_p op(A)(i, p) op(B)(p, j) + beta C(i, j) with FP32
// fused multiply-adds in k order: what FP32 gemm gives for entries whose
// row or column holds Inf or NaN, which the split cannot carry.
void fp32_entry(const GemmArgs& g, index_t i, index_t j) {
  float s = 0.0f;
  for (index_t p = 0; p < g.k; ++p) s = ::fmaf(g.a[g.a_offset(i, p)], g.b[g.b_offset(p, j)], s);
  float* c = g.c + g.c_offset(i, j);
  *c = apply_alpha_beta(s, g.alpha, g.beta, c);
}

// C(i, j) = alpha * float(sum_p op(A)(i, p) op(B)(p, j)) + beta C(i, j), the
// sum with float64 fused multiply-adds in k order (one rounding at the end):
// EmulatedFP32's entries in the few rows or columns too wide for its FP16
// pieces. The CUDA backend's wide-row pass (wide_rows.cuh) does the same operations.
void float64_entry(const GemmArgs& g, index_t i, index_t j) {
  double s = 0.0;
  for (index_t p = 0; p < g.k; ++p)
    s = ::fma(static_cast<double>(g.a[g.a_offset(i, p)]), static_cast<double>(g.b[g.b_offset(p, j)]), s);
  float* c = g.c + g.c_offset(i, j);
  *c = apply_alpha_beta(static_cast<float>(s), g.alpha, g.beta, c);
}

// Rows of op(A) and columns of op(B) whose entries are recomputed in float64
// instead of taken from the pieces (empty: none).
struct WideRows {
  std::vector<char> a, b;
  bool a_has(index_t i) const { return !a.empty() && a[i] != 0; }
  bool b_has(index_t j) const { return !b.empty() && b[j] != 0; }
};

// One policy's split-and-combine, exactly as its traits describe it, in
// TileM x TileN tiles; the entries of `wide` rows and columns (finite ones) in
// float64 afterwards.
template <class Policy, int TileM, int TileN>
void run_split_tiles(const GemmArgs& g, const WideRows& wide) {
  using traits = policy_traits<Policy>;
  const PackedOperand A = pack_operand(g.a_rows(), TileM, traits::split, traits::scales_rows_and_columns);
  const PackedOperand B = pack_operand(g.b_cols(), TileN, traits::split, traits::scales_rows_and_columns);

#pragma omp parallel for collapse(2) schedule(dynamic)
  for (index_t qb = 0; qb < B.panels; ++qb) {
    for (index_t qa = 0; qa < A.panels; ++qa) {
      float acc[2][TileM][TileN];
      MicroKernel<Policy, TileM, TileN>::run(A, qa, B, qb, acc);
      for (int jj = 0; jj < TileN; ++jj) {
        const index_t j = qb * TileN + jj;
        if (j >= g.n) break;
        for (int ii = 0; ii < TileM; ++ii) {
          const index_t i = qa * TileM + ii;
          if (i >= g.m) break;
          // Left for the passes below, which must read the caller's C (beta != 0).
          if (traits::emulated && (A.nonfinite[i] || B.nonfinite[j])) continue;
          if (wide.a_has(i) || wide.b_has(j)) continue;
          const float v = combine_accumulators(acc[0][ii][jj], acc[1][ii][jj], traits::lo_scale_log2,
                                               A.exponent[i] + B.exponent[j]);
          float* c = g.c + g.c_offset(i, j);
          *c = apply_alpha_beta(v, g.alpha, g.beta, c);
        }
      }
    }
  }

  // Special values: pieces of Inf/NaN are not Inf/NaN arithmetic (Inf - Inf
  // in the split, Inf * 0 in a correction product), so entries that touch a
  // non-finite input are recomputed the way FP32 gemm computes them.
  if (traits::emulated && (A.any_nonfinite() || B.any_nonfinite())) {
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i)
        if (A.nonfinite[i] || B.nonfinite[j]) fp32_entry(g, i, j);
  }
  if (!wide.a.empty() || !wide.b.empty()) {
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i)
        if ((wide.a_has(i) || wide.b_has(j)) && !A.nonfinite[i] && !B.nonfinite[j]) float64_entry(g, i, j);
  }
  // EmulatedFP32's routed outliers, on the entries the passes above leave.
  const auto routes = [](const PackedOperand& op) {
    return std::any_of(op.outliers.begin(), op.outliers.end(), [](const auto& list) { return !list.empty(); });
  };
  if (routes(A) || routes(B)) {
#pragma omp parallel for schedule(static)
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i) {
        if (A.outliers[i].empty() && B.outliers[j].empty()) continue;
        if (A.nonfinite[i] || B.nonfinite[j] || wide.a_has(i) || wide.b_has(j)) continue;
        outlier_entry(g, A.outliers[i], B.outliers[j], i, j);
      }
  }
}

// Tiles of MR x NR, or one row (column) wide where op(A) (op(B)^T) has fewer
// rows than a panel: a thin product then packs no padding (full panels would
// make a dot product's packed operands 20x its inputs). An entry's value does not depend on
// the tile: each is its own sum, in k order.
template <class Policy>
void run_split(const GemmArgs& g, const WideRows& wide = {}) {
  if (g.m < MR && g.n < NR) return run_split_tiles<Policy, 1, 1>(g, wide);
  if (g.m < MR) return run_split_tiles<Policy, 1, NR>(g, wide);
  if (g.n < NR) return run_split_tiles<Policy, MR, 1>(g, wide);
  run_split_tiles<Policy, MR, NR>(g, wide);
}

// The rows of `rows` that do not fit the scaled FP16 split (those that take
// the outlier route fit), and the verdict.
OperandRangeVerdict wide_rows_of(const OperandRows& rows, std::vector<char>& wide) {
  OperandRangeVerdict v;
  wide.assign(static_cast<std::size_t>(rows.rows), 0);
  for (index_t r = 0; r < rows.rows; ++r) {
    const RowRange range = row_range(rows, r);
    const RowOutliers o = row_outliers(rows, r);
    const bool routed = routes_outliers(range, o.bulk_max, o.count, rows.depth);
    v.add(range, routed, o.count);
    wide[r] = routed || fits_fp16_scaled(range) ? 0 : 1;
  }
  return v;
}

template <class Policy>
void run(const GemmArgs& g) {
  run_split<Policy>(g);
}

// EmulatedFP32 picks its path from the operands' ranges (egemm/path_selection.hpp).
template <>
void run<EmulatedFP32>(const GemmArgs& g) {
  WideRows wide;
  const OperandRangeVerdict va = wide_rows_of(g.a_rows(), wide.a), vb = wide_rows_of(g.b_cols(), wide.b);
  const EmulationPath path = choose_emulation_path(va, vb);
  log_debug([&] {
    return describe_path_choice("host", g, path, va.wide_rows, vb.wide_rows, va.outlier_rows, vb.outlier_rows);
  });
  if (va.wide_rows == 0) wide.a.clear();
  if (vb.wide_rows == 0) wide.b.clear();
  switch (path) {
    case EmulationPath::fp16_scaled: return run_split<EmulatedFP32>(g, wide);
    case EmulationPath::tf32_full_range: return run_split<FullRangeTF32x3>(g);
    case EmulationPath::native_fp32: return run_split<NativeFP32>(g);
    case EmulationPath::int8_digits: break;  // not a path of EmulatedFP32's choice
  }
}

// Int8Slices: exact integer sums; deeper than an int32 sum holds exactly, EmulatedFP32.
template <>
void run<Int8Slices>(const GemmArgs& g) {
  if (g.k > int8_slices_max_depth) {
    log_debug([&] { return "host Int8Slices " + describe(g) + " -> EmulatedFP32 (k beyond int8_slices_max_depth)"; });
    return run<EmulatedFP32>(g);
  }
  const NonfiniteLines special = int8_slices_gemm(g);
  const bool any = std::find(special.a.begin(), special.a.end(), 1) != special.a.end() ||
                   std::find(special.b.begin(), special.b.end(), 1) != special.b.end();
  if (!any) return;
#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i)
      if (special.a[i] || special.b[j]) fp32_entry(g, i, j);
}

// NormwiseFP32: Int8Slices' digits where every row holds them, else EmulatedFP32.
template <>
void run<NormwiseFP32>(const GemmArgs& g) {
  if (normwise_fp32_path(g) != EmulationPath::int8_digits) {
    log_debug([&] { return "host NormwiseFP32 " + describe(g) + " -> EmulatedFP32 (rows too spread for the digits)"; });
    return run<EmulatedFP32>(g);
  }
  log_debug([&] { return "host NormwiseFP32 " + describe(g) + " -> int8_digits"; });
  run<Int8Slices>(g);
}

}  // namespace

void gemm(PolicyId policy, const GemmArgs& args) {
  bool done = false;
  for_each_policy([&](auto tag) {
    if (!done && policy_traits<decltype(tag)>::id == policy) {
      run<decltype(tag)>(args);
      done = true;
    }
  });
  if (!done) throw unsupported(std::string("egemm host backend: no algorithm for policy ") + policy_name(policy));
}

void scale_c(const GemmArgs& g) {
  for (index_t j = 0; j < g.n; ++j)
    for (index_t i = 0; i < g.m; ++i) {
      float* c = g.c + g.c_offset(i, j);
      *c = g.beta == 0.0f ? 0.0f : g.beta * *c;
    }
}

}  // namespace egemm::host
