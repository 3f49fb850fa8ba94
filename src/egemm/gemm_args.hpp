// A validated, column-major gemm problem: C = alpha * op(A) * op(B) + beta * C.
// Backends receive only GemmArgs built by make_gemm_args, so they never see
// a bad size, leading dimension, pointer or transpose character.
#pragma once

#include <cstdint>

namespace egemm {

using index_t = std::int64_t;

enum class Op : std::uint8_t { none, transpose };

// A matrix seen as `rows` rows of `depth` elements: element (r, p) is at
// base[r * row_stride + p * depth_stride]. op(A) and op(B)^T both take this
// form, so one split/pack routine serves both operands with transposes folded in.
template <class T>
struct OperandRowsT {
  const T* base;
  index_t rows, depth;
  index_t row_stride, depth_stride;
  const T& operator()(index_t r, index_t p) const { return base[r * row_stride + p * depth_stride]; }
};
using OperandRows = OperandRowsT<float>;
using OperandRows64 = OperandRowsT<double>;

// One struct for both precisions (T = float for the FP32 tags, double for
// EmulatedFP64), so every backend and the validation share one layout.
template <class T>
struct GemmArgsT {
  using value_type = T;
  Op trans_a;
  Op trans_b;
  index_t m, n, k;
  T alpha;
  const T* a;
  index_t lda;
  const T* b;
  index_t ldb;
  T beta;
  T* c;
  index_t ldc;

  // op(A)(i, p) and op(B)(p, j) as offsets into a and b.
  index_t a_offset(index_t i, index_t p) const { return trans_a == Op::none ? i + p * lda : p + i * lda; }
  index_t b_offset(index_t p, index_t j) const { return trans_b == Op::none ? p + j * ldb : j + p * ldb; }
  index_t c_offset(index_t i, index_t j) const { return i + j * ldc; }

  // op(A) as m rows of length k; op(B)^T as n rows of length k.
  OperandRowsT<T> a_rows() const {
    return trans_a == Op::none ? OperandRowsT<T>{a, m, k, 1, lda} : OperandRowsT<T>{a, m, k, lda, 1};
  }
  OperandRowsT<T> b_cols() const {
    return trans_b == Op::none ? OperandRowsT<T>{b, n, k, ldb, 1} : OperandRowsT<T>{b, n, k, 1, ldb};
  }

  // Nothing to multiply: C = beta * C (and C is not read when beta == 0).
  bool only_scales_c() const { return k == 0 || alpha == T(0); }
  bool empty() const { return m == 0 || n == 0; }
};
using GemmArgs = GemmArgsT<float>;
using GemmArgs64 = GemmArgsT<double>;

// Validates BLAS-style arguments and throws egemm::invalid_argument naming
// the first bad one. `caller` prefixes the message ("egemm::gemm", ...).
// Rules: transposes in {N,n,T,t,C,c}; m, n, k >= 0; lda >= max(1, rows of A
// as stored), likewise ldb, ldc >= max(1, m); each matrix's last element
// addressable; an operand the call reads (nonzero extents, and alpha != 0
// for A and B, as in BLAS) must not be null; C must not share an element
// with an operand the call reads (blocks of one matrix whose address ranges
// interleave are fine when disjoint).
// The names the messages give a and b: a front end that swaps the operands
// (row-major C through the transpose identity) passes the user's names.
struct OperandNames {
  const char* a = "A";
  const char* b = "B";
};
GemmArgs make_gemm_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k, float alpha,
                        const float* a, index_t lda, const float* b, index_t ldb, float beta, float* c, index_t ldc,
                        OperandNames names = {});
// The same rules for double operands (EmulatedFP64); one implementation serves both.
GemmArgs64 make_gemm_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k,
                          double alpha, const double* a, index_t lda, const double* b, index_t ldb, double beta,
                          double* c, index_t ldc, OperandNames names = {});

// The same checks for the operands alone (no C, alpha, beta), for queries
// that look at A and B only.
GemmArgs make_operand_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k,
                           const float* a, index_t lda, const float* b, index_t ldb);

}  // namespace egemm
