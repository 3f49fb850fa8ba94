// Inputs whose products or sums leave FP32's range (overflow, subnormal
// products, alpha and beta near FLT_MAX), and the check of a result against
// what FP32 gemm gives for each entry; shared by the host and device tests.
#pragma once

#include <string>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"
#include "support/matrices.hpp"

namespace egemm::test {

// One call: op(A) m x k and op(B) k x n stored as the transposes ask, C, the
// scalars, and which entries FP32 gemm itself leaves to its summation order.
struct OverflowCase {
  std::string name;
  char trans_a = 'N', trans_b = 'N';
  index_t m = 0, n = 0, k = 0;
  float alpha = 1.0f, beta = 0.0f;
  Matrix a, b, c;
  // Entry (i, j) at i + j * m: products that overflow with both signs. A
  // k-order FMA chain keeps the sign of its first overflow, a blocked or
  // split sum may meet +Inf and -Inf (NaN), an exact sum takes the sign of
  // the larger side: any of these is FP32 gemm's answer, so only "not
  // finite" is required there.
  std::vector<char> order_dependent;
  GemmArgs args();  // points into a, b, c
};

// Whether the policy promises FP32's range behaviour: every tag but the
// paper's FP16-range baselines (RoundSplit4, TruncateSplit4, Half), whose
// inputs are limited to FP16's 65504 and which overflow as documented.
template <class Policy>
constexpr bool promises_fp32_range() {
  return policy_traits<Policy>::max_abs_input > 1e38f;
}

// Every case at m x n x k (fresh random values from `seed`, never zeros),
// with the given transposes. `wide`: every row of op(A) and column of op(B)
// also holds one element 2^-40 times its neighbours' size, too wide a spread
// for the scaled FP16 pieces or the digits, so EmulatedFP32 and NormwiseFP32
// take the TF32 path.
std::vector<OverflowCase> overflow_cases(char trans_a, char trans_b, index_t m, index_t n, index_t k, bool wide,
                                         std::uint64_t seed);

// C(i, j) as FP32 gemm computes it: a k-order fmaf sum, then alpha * s or
// fmaf(alpha, s, beta * C), from the C the call was given.
float fp32_gemm_entry(const GemmArgs& g, const std::vector<float>& c_before, index_t i, index_t j);

// Checks `got` (the result of policy on x, x.c the C given to the call)
// entry by entry: NaN where FP32 gemm gives NaN, the same signed Inf where it
// gives Inf, not finite where the case leaves the entry to the order, and
// elsewhere finite and within the policy's a-priori bound (plus FP32's own
// rounding on the subnormal grid, 2^-150 per add) of the float64 reference.
// How C's old value enters: beta C rounded first, then fmaf(alpha, sum, beta C) (the reference
// BLAS's order, and EGEMM's epilogue); or either that or beta C fused into the last FMA, as
// cuBLAS SGEMM may do (NativeFP32, and the calls EGEMM hands to it).
enum class BetaC { rounded, rounded_or_fused };
void check_fp32_behaviour(PolicyId policy, OverflowCase& x, const std::vector<float>& got,
                          BetaC beta_c = BetaC::rounded);

}  // namespace egemm::test
