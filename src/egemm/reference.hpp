// The float64 reference gemm and the error measures every accuracy check and
// benchmark uses. Host memory only.
#pragma once

#include <cstdint>

#include "egemm/gemm_args.hpp"

namespace egemm::reference {

// ref = alpha * op(A) * op(B) + beta * C computed in float64 (products of
// floats are exact in double; the sum's error is ~k * 2^-53, far below FP32's).
// ref is m x n, column-major with leading dimension m. C is read only when beta != 0.
void gemm_fp64(const GemmArgs& args, double* ref);

struct ErrorStats {
  double rel_frobenius = 0;  // ||C - ref||_F / ||ref||_F over entries where both are finite
  double max_abs = 0;        // max |C - ref| over those entries
  std::int64_t nonfinite_mismatch = 0;  // entries where C is non-finite and ref is not, or the reverse
  std::int64_t nan_mismatch = 0;        // entries where exactly one of C, ref is NaN
};

// Compares a float result (leading dimension ldc) with a float64 one (ld m).
ErrorStats compare(const float* c, index_t ldc, const double* ref, index_t m, index_t n);

}  // namespace egemm::reference
