// The gemm-based distance kernel both case studies share.
#pragma once

#include "egemm/policy.hpp"
#include "views.hpp"

namespace egemm::cases {

// |x_i|^2 for every row, into `norms` (allocated by the caller, outside any
// timed region), or into a new View.
void squared_norms(const Matrix& x, const Vector& norms);
Vector squared_norms(const Matrix& x);

// D(i, j) = |x_i - y_j|^2 = |x_i|^2 - 2 x_i . y_j + |y_j|^2, the cross term by
// one KokkosBlas::gemm(space, tag, "N", "T", -2, X, Y, 0, D). Returns the
// seconds spent in the gemm (fenced before and after).
double squared_distances(PolicyId tag, const Matrix& x, const Vector& x_norms, const Matrix& y, const Vector& y_norms,
                         const Matrix& d);

}  // namespace egemm::cases
