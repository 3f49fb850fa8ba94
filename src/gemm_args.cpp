// Argument checks of the BLAS-style call: sizes, leading dimensions, pointers, aliasing.
#include "egemm/gemm_args.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>

#include "egemm/errors.hpp"

namespace egemm {
namespace {

[[noreturn]] void fail(const char* caller, const std::string& what) {
  throw invalid_argument(std::string(caller) + ": " + what);
}

Op parse_op(const char* caller, const char* name, char t) {
  switch (t) {
    case 'N': case 'n': return Op::none;
    case 'T': case 't': case 'C': case 'c': return Op::transpose;  // real data: C == T
    default: break;
  }
  std::ostringstream s;
  s << name << " must be one of N, T, C (either case), got ";
  if (std::isprint(static_cast<unsigned char>(t))) s << "'" << t << "' ";
  s << "(0x" << std::hex << (static_cast<int>(t) & 0xff) << ")";  // a NUL or control character shows as its code
  fail(caller, s.str());
}

void check_size(const char* caller, const char* name, index_t v) {
  if (v < 0) fail(caller, std::string(name) + " must be >= 0, got " + std::to_string(v));
}

// ld against the stored matrix's rows, and its last element within reach of
// a pointer (byte offsets of (cols - 1) ld + rows elements fit 63 bits).
// T, float or double, sizes the elements: the last one must be addressable.
template <class T>
void check_ld(const char* caller, const char* name, index_t ld, index_t rows, index_t cols, const char* rows_desc) {
  const index_t need = std::max<index_t>(1, rows);
  if (ld < need)
    fail(caller, std::string(name) + " must be >= max(1, " + rows_desc + ") = " + std::to_string(need) + ", got " +
                     std::to_string(ld));
  constexpr index_t max_elements = std::numeric_limits<index_t>::max() / static_cast<index_t>(sizeof(T));
  if (rows > max_elements || (cols > 1 && ld > (max_elements - rows) / (cols - 1)))
    fail(caller, std::string(name) + " = " + std::to_string(ld) + " for a " + std::to_string(rows) + " x " +
                     std::to_string(cols) + " matrix puts its last element beyond any address");
}

// [first, last) byte range touched by a column-major rows x cols matrix.
struct Span {
  std::uintptr_t first, last;
};
template <class T>
Span span_of(const T* p, index_t rows, index_t cols, index_t ld) {
  const auto first = reinterpret_cast<std::uintptr_t>(p);
  const auto count = static_cast<std::uintptr_t>((cols - 1) * ld + rows);
  return {first, first + count * sizeof(T)};
}
bool overlaps(Span x, Span y) { return x.first < y.last && y.first < x.last; }

// floor(a / b) for b > 0.
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Whether rows [r0, r0 + rows) of columns [c0, c0 + cols) meet x's rows
// [0, x_rows) of columns [0, x_cols) (one grid: the same leading dimension).
bool rectangles_meet(std::int64_t r0, std::int64_t rows, std::int64_t c0, std::int64_t cols, index_t x_rows,
                     index_t x_cols) {
  return rows > 0 && r0 < x_rows && r0 + rows > 0 && c0 < x_cols && c0 + cols > 0;
}

// Whether two column-major matrices share an element. Apart in memory, they
// cannot. When their spans interleave (blocks of one matrix, as in the
// trailing update A22 -= A21 A12 of a blocked factorisation), y is placed in
// x's grid: with one leading dimension, y is a rectangle of it (or two, where
// its columns wrap past the leading dimension), so two interval tests decide;
// with two leading dimensions, column by column (each column of y is one
// contiguous run, and it can meet only the columns of x its ends fall into).
template <class T>
bool share_an_element(const T* x, index_t x_rows, index_t x_cols, index_t ldx, const T* y, index_t y_rows,
                      index_t y_cols, index_t ldy) {
  if (!overlaps(span_of(x, x_rows, x_cols, ldx), span_of(y, y_rows, y_cols, ldy))) return false;
  const auto xb = reinterpret_cast<std::uintptr_t>(x), yb = reinterpret_cast<std::uintptr_t>(y);
  const std::int64_t bytes = yb >= xb ? static_cast<std::int64_t>(yb - xb) : -static_cast<std::int64_t>(xb - yb);
  if (bytes % static_cast<std::int64_t>(sizeof(T)) != 0) return true;  // elements half on top of each other
  const std::int64_t d = bytes / static_cast<std::int64_t>(sizeof(T));  // y's first element, in x's offsets
  if (ldx == ldy) {
    const std::int64_t c0 = floor_div(d, ldx), r0 = d - c0 * ldx;  // 0 <= r0 < ld
    const std::int64_t in_column = std::min<std::int64_t>(y_rows, ldx - r0);  // the rest wraps into the next column
    return rectangles_meet(r0, in_column, c0, y_cols, x_rows, x_cols) ||
           rectangles_meet(0, y_rows - in_column, c0 + 1, y_cols, x_rows, x_cols);
  }
  for (index_t j = 0; j < y_cols; ++j) {
    const std::int64_t first = d + j * ldy, end = first + y_rows;  // y's column j: [first, end)
    const std::int64_t c_lo = std::max<std::int64_t>(0, floor_div(first - x_rows + 1, ldx));
    const std::int64_t c_hi = std::min<std::int64_t>(x_cols - 1, floor_div(end - 1, ldx));
    for (std::int64_t c = c_lo; c <= c_hi; ++c)
      if (c * ldx < end && first < c * ldx + x_rows) return true;
  }
  return false;
}

// Transposes, sizes and leading dimensions of the operands.
template <class T>
GemmArgsT<T> checked_operands(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k,
                              const T* a, index_t lda, const T* b, index_t ldb) {
  GemmArgsT<T> g{};
  g.trans_a = parse_op(caller, "transA", trans_a);
  g.trans_b = parse_op(caller, "transB", trans_b);
  check_size(caller, "m", m);
  check_size(caller, "n", n);
  check_size(caller, "k", k);
  check_ld<T>(caller, "lda", lda, g.trans_a == Op::none ? m : k, g.trans_a == Op::none ? k : m, g.trans_a == Op::none ? "m" : "k");
  check_ld<T>(caller, "ldb", ldb, g.trans_b == Op::none ? k : n, g.trans_b == Op::none ? n : k, g.trans_b == Op::none ? "k" : "n");
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.lda = lda;
  g.b = b;
  g.ldb = ldb;
  return g;
}

// Operands the call reads must exist.
template <class T>
void require_operands(const char* caller, const GemmArgsT<T>& g, OperandNames names) {
  const std::string a = names.a, b = names.b;
  if (g.m > 0 && g.k > 0 && g.a == nullptr)
    fail(caller, a + " is null but op(" + a + ") is " + std::to_string(g.m) + "x" + std::to_string(g.k));
  if (g.k > 0 && g.n > 0 && g.b == nullptr)
    fail(caller, b + " is null but op(" + b + ") is " + std::to_string(g.k) + "x" + std::to_string(g.n));
}

template <class T>
GemmArgsT<T> checked_gemm_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k, T alpha,
                               const T* a, index_t lda, const T* b, index_t ldb, T beta, T* c, index_t ldc,
                               OperandNames names) {
  GemmArgsT<T> g = checked_operands(caller, trans_a, trans_b, m, n, k, a, lda, b, ldb);
  check_ld<T>(caller, "ldc", ldc, m, n, "m");
  if (m > 0 && n > 0 && c == nullptr) fail(caller, "C is null but C is " + std::to_string(m) + "x" + std::to_string(n));
  // BLAS reads neither A nor B when alpha == 0 or C is empty: they may be null, or C itself.
  if (alpha != T(0) && m > 0 && n > 0) require_operands(caller, g, names);
  if (m > 0 && n > 0 && k > 0 && alpha != T(0)) {
    const index_t a_rows = g.trans_a == Op::none ? m : k, a_cols = g.trans_a == Op::none ? k : m;
    const index_t b_rows = g.trans_b == Op::none ? k : n, b_cols = g.trans_b == Op::none ? n : k;
    if (share_an_element<T>(c, m, n, ldc, a, a_rows, a_cols, lda))
      fail(caller, std::string("C overlaps ") + names.a + " in memory; C must not alias an input");
    if (share_an_element<T>(c, m, n, ldc, b, b_rows, b_cols, ldb))
      fail(caller, std::string("C overlaps ") + names.b + " in memory; C must not alias an input");
  }
  g.alpha = alpha;
  g.beta = beta;
  g.c = c;
  g.ldc = ldc;
  return g;
}

}  // namespace

GemmArgs make_operand_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k,
                           const float* a, index_t lda, const float* b, index_t ldb) {
  const GemmArgs g = checked_operands(caller, trans_a, trans_b, m, n, k, a, lda, b, ldb);
  require_operands(caller, g, {});
  return g;
}

GemmArgs make_gemm_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k, float alpha,
                        const float* a, index_t lda, const float* b, index_t ldb, float beta, float* c, index_t ldc,
                        OperandNames names) {
  return checked_gemm_args<float>(caller, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, names);
}

GemmArgs64 make_gemm_args(const char* caller, char trans_a, char trans_b, index_t m, index_t n, index_t k,
                          double alpha, const double* a, index_t lda, const double* b, index_t ldb, double beta,
                          double* c, index_t ldc, OperandNames names) {
  return checked_gemm_args<double>(caller, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, names);
}

}  // namespace egemm
