// A rank-2 float View seen as a column-major BLAS operand: pointer, leading
// dimension, and whether the storage holds the matrix or its transpose.
// LayoutLeft is column-major; LayoutRight is the column-major storage of the
// transpose (so row-major data needs no copy); LayoutStride is accepted when
// one of its strides is 1.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "egemm/errors.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::kokkos {

struct ColumnMajorOperand {
  float* data;
  index_t ld;
  bool stored_transposed;  // storage is column-major X^T (row-major X)
};

template <class View>
constexpr void check_view_type() {
  static_assert(Kokkos::is_view<View>::value, "KokkosBlas::gemm with an EGEMM tag takes Kokkos::View arguments");
  static_assert(View::rank == 2, "KokkosBlas::gemm with an EGEMM tag takes rank-2 Views");
  static_assert(std::is_same_v<std::remove_const_t<typename View::value_type>, float>,
                "KokkosBlas::gemm with an EGEMM tag takes float Views (EGEMM emulates FP32)");
}

template <class View>
ColumnMajorOperand column_major(const View& v, const char* name) {
  check_view_type<View>();
  using layout = typename View::array_layout;
  auto* p = const_cast<float*>(v.data());
  const index_t rows = static_cast<index_t>(v.extent(0)), cols = static_cast<index_t>(v.extent(1));
  const index_t s0 = static_cast<index_t>(v.stride(0)), s1 = static_cast<index_t>(v.stride(1));
  if constexpr (std::is_same_v<layout, Kokkos::LayoutLeft>) {
    return {p, std::max<index_t>(s1, std::max<index_t>(rows, 1)), false};
  } else if constexpr (std::is_same_v<layout, Kokkos::LayoutRight>) {
    return {p, std::max<index_t>(s0, std::max<index_t>(cols, 1)), true};
  } else {
    // LayoutStride (or another layout with run-time strides).
    if (s0 == 1 || rows <= 1) return {p, std::max<index_t>(s1, std::max<index_t>(rows, 1)), false};
    if (s1 == 1 || cols <= 1) return {p, std::max<index_t>(s0, std::max<index_t>(cols, 1)), true};
    throw invalid_argument(std::string("KokkosBlas::gemm (EGEMM): View ") + name + " has strides (" +
                           std::to_string(s0) + ", " + std::to_string(s1) +
                           "); one of them must be 1. Copy it into a LayoutLeft or LayoutRight View first.");
  }
}

}  // namespace egemm::kokkos
