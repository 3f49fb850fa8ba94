// Test inputs and checks shared by the unit tests: fresh random matrices
// (never zeros), poisoned outputs, and the error bound each policy's analysis
// gives.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

namespace egemm::test {

// A value's bits, for comparisons bit for bit (signed zeros and NaN payloads included).
inline std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}
inline std::uint64_t bits_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// A column-major matrix with a leading dimension that may exceed its rows
// (Matrix: float, the FP32 tags' operands; Matrix64: double, EmulatedFP64's).
template <class T>
struct BasicMatrix {
  index_t rows = 0, cols = 0, ld = 0;
  std::vector<T> data;
  BasicMatrix() = default;
  BasicMatrix(index_t r, index_t c, index_t ld_ = 0) : rows(r), cols(c), ld(ld_ ? ld_ : std::max<index_t>(1, r)) {
    data.assign(static_cast<std::size_t>(ld * std::max<index_t>(c, 1)), T(0));
  }
  T& operator()(index_t i, index_t j) { return data[i + j * ld]; }
  T operator()(index_t i, index_t j) const { return data[i + j * ld]; }
  T* ptr() { return data.data(); }
  const T* ptr() const { return data.data(); }
};
using Matrix = BasicMatrix<float>;
using Matrix64 = BasicMatrix<double>;

// A new seed per call, so every test run draws fresh inputs; printed on failure.
std::uint64_t fresh_seed();

// Uniform [-1, 1) entries; padding rows (between rows and ld) get NaN so a
// kernel that reads them shows it.
Matrix random_matrix(index_t rows, index_t cols, std::uint64_t seed, index_t ld = 0);
// Entries u * 2^e with u uniform in [1, 2) and a random sign, e uniform in [emin, emax].
Matrix random_wide_matrix(index_t rows, index_t cols, std::uint64_t seed, int emin, int emax);

// Operands whose small elements meet the other operand's mass (NormwiseFP32's
// hard case): op(A) 48 x 16384, each row's large part (magnitudes in [0.5, 1])
// ~1000x its small part (1e-3 uniform [-1, 1]); op(B) 16384 x 40, zero on the
// large part, uniform [-1, 1] on the small one, so every entry draws only on
// the small elements. The parts are halves of k, or (`interleaved`) even and
// odd positions. A and B column-major, 'N' 'N'.
struct AlignedOperands {
  Matrix a, b;
};
AlignedOperands small_halves_meeting(std::uint64_t seed, bool interleaved);

// x^T, column-major with leading dimension x.cols.
Matrix transposed(const Matrix& x);

// C filled with a signalling pattern (NaN) so an entry the kernel fails to write is seen.
void poison(Matrix& c);
inline float poison_value() { return std::numeric_limits<float>::quiet_NaN(); }

// The rounding unit of tensor-core style accumulation: truncating adds lose up
// to one ulp (2^-23) per add, round-to-nearest ones half of that.
inline constexpr double accumulation_unit = 0x1p-23;

// Entry-wise a-priori bound on |C - C_exact| for `policy` on these inputs:
//   sum_p e(a_ip, b_pj) + gamma * sum_p |a_ip b_pj| + epilogue rounding,
// with e() the representation error of the split (relative and absolute
// parts from the policy's traits, scaled rows/columns included) and gamma =
// (adds per entry) * accumulation_unit. Returns an m x n column-major matrix
// (ld m) of bounds for the alpha * op(A) op(B) + beta * C result.
std::vector<double> error_bound(PolicyId policy, const GemmArgs& args, const std::vector<float>& c_before);

// The policy whose algorithm runs for `policy` on these operands (host
// memory): EmulatedFP32's path choice, NormwiseFP32's route.
PolicyId effective_policy(PolicyId policy, const GemmArgs& args);

// The largest error_bound over every algorithm `policy` may run (EmulatedFP32:
// its FP16 and TF32 paths; NormwiseFP32: those and the digits): a call made in
// panels of C chooses per panel, from the panel's rows alone.
std::vector<double> error_bound_any_path(PolicyId policy, const GemmArgs& args, const std::vector<float>& c_before);

}  // namespace egemm::test
