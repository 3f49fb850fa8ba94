// One accuracy check of a gemm result against the float64 reference and the
// policy's a-priori bound, shared by the host and device tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/policy.hpp"
#include "egemm/reference.hpp"
#include "support/matrices.hpp"

namespace egemm::test {

struct GemmCase {
  char trans_a, trans_b;
  index_t m, n, k;
  float alpha, beta;
  index_t pad;  // extra rows in every leading dimension
};

struct GemmInputs {
  Matrix a, b, c;
  GemmArgs args;  // points into a, b, c
};

// Fresh random A, B, C for the case (C random too, so beta is exercised).
GemmInputs make_inputs(const GemmCase& c, std::uint64_t seed);

// Runs `run(args)` on a poisoned-free copy, then checks every entry of C
// against the float64 reference: written, finite, within the bound.
// Returns the relative Frobenius error.
double check_gemm(PolicyId policy, const GemmCase& c, const std::function<void(const GemmArgs&)>& run);

// op(A)(i, :) op(B)(:, j) as FP32 gemm sums it: fused multiply-adds in k order.
float fp32_sum(const GemmArgs& g, index_t i, index_t j);

// alpha or beta Inf or NaN: every entry of C in the class (NaN, +Inf, -Inf,
// finite) that FP32 BLAS gives it, alpha * AB + beta * C with beta == 0
// never reading C, evaluated in float64. Entries whose AB lies within the
// policy's bound of zero are skipped: the sign of alpha * AB may go either way
// there. The scalars of interest per case, as (alpha, beta) pairs.
struct SpecialScalars {
  float alpha, beta;
};
const std::vector<SpecialScalars>& special_scalar_cases();
void check_special_scalars(PolicyId policy, const GemmCase& c, const std::function<void(const GemmArgs&)>& run);

// EmulatedFP32 on rows of A entirely below 2^-126 (FP32 subnormals, down to
// 2^-149), alone (the scaled FP16 path lifts them into range exactly, the
// result rounded once on the way back) or with two rows mixing them with
// normal values (wide: FP16 is out, and TF32 pieces would hold the subnormal
// rows to a spacing of 2^-136, at most ~10 bits, so the call runs native FP32). Either way every entry is
// within the bound plus FP32's rounding on the subnormal grid (2^-150 per
// add) of float64, and a subnormal result no further from it than a k-order
// FP32 dot product (within 2^-140, where TF32 pieces would be ~2^-136 off).
void check_subnormal_rows(bool with_wide_rows, const std::function<void(const GemmArgs&)>& run);

// `count` random cases from a fresh seed: m, n, k in [0, max_extent] (zero
// included), every transpose, padded leading dimensions, alpha and beta from
// {0, 1, -0.75, 2.5} (beta == 0 poisons C), for the fuzz tests of both backends.
std::vector<GemmCase> random_cases(int count, index_t max_extent);

// The trailing update of a blocked factorisation in one n x n matrix (ld n +
// 1): A22 -= A21 A12 with blocks of b, whose address ranges interleave but
// share no element. `update(m, n, b)` runs it on m's storage; then A22 must be
// within the policy's bound of float64 and every other element unchanged.
void check_trailing_update(PolicyId policy, const std::function<void(Matrix& m, index_t n, index_t b)>& update);

inline char op_char(Op op) { return op == Op::none ? 'N' : 'T'; }

// g's product by the host backend through the public raw-pointer API, into c
// (g.c, or a copy of it laid out alike).
template <class Policy>
void run_on_host(Policy, const GemmArgs& g, float* c) {
  gemm(Policy{}, op_char(g.trans_a), op_char(g.trans_b), g.m, g.n, g.k, g.alpha, g.a, g.lda, g.b, g.ldb, g.beta, c,
       g.ldc);
}

// The host backend against the float64 reference.
template <class Policy>
double check_host_gemm(Policy, const GemmCase& c) {
  return check_gemm(policy_traits<Policy>::id, c, [](const GemmArgs& g) { run_on_host(Policy{}, g, g.c); });
}

}  // namespace egemm::test
