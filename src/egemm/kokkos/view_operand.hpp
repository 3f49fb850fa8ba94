// A rank-2 float (double for EmulatedFP64) View seen as a column-major BLAS operand: pointer, leading
// dimension, and whether the storage holds the matrix or its transpose.
// LayoutLeft is column-major; LayoutRight is the column-major storage of the
// transpose (so row-major data needs no copy); LayoutStride is accepted when
// one of its strides is 1 and the other keeps rows (columns) from overlapping.
#pragma once

#include <Kokkos_Core.hpp>

#include <string>
#include <type_traits>

#include "egemm/errors.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/kokkos/caller.hpp"

namespace egemm::kokkos {

template <class T>
struct ColumnMajorOperand {
  T* data;
  index_t ld;
  bool stored_transposed;  // storage is column-major X^T (row-major X)
};

// T: the tag's scalar (policy_traits<Tag>::value_type).
template <class View, class T = float>
constexpr void check_view_type() {
  static_assert(Kokkos::is_view<View>::value, "KokkosBlas::gemm with an EGEMM tag takes Kokkos::View arguments");
  static_assert(View::rank == 2, "KokkosBlas::gemm with an EGEMM tag takes rank-2 Views");
  using value = std::remove_const_t<typename View::value_type>;
  static_assert(!std::is_same_v<T, float> || std::is_same_v<value, float>,
                "KokkosBlas::gemm with an FP32 EGEMM tag takes float Views (EGEMM's FP32 tags emulate FP32; "
                "egemm::EmulatedFP64 takes double Views)");
  static_assert(!std::is_same_v<T, double> || std::is_same_v<value, double>,
                "KokkosBlas::gemm with egemm::EmulatedFP64 takes double Views");
}

// A View the call reads must have data (an unmanaged View of a null pointer
// with extents would otherwise reach the backend under a swapped name).
// Extents, not size(): Kokkos 4's View reports size 0 when its data is null.
template <class View>
void require_data(const View& v, const char* name, bool read) {
  if (read && v.data() == nullptr && v.extent(0) > 0 && v.extent(1) > 0)
    throw invalid_argument(std::string(caller) + ": View " + name + " is null but has extents " +
                           std::to_string(v.extent(0)) + " x " + std::to_string(v.extent(1)));
}

template <class View, class T = std::remove_const_t<typename View::value_type>>
ColumnMajorOperand<T> column_major(const View& v, const char* name) {
  check_view_type<View, T>();
  using layout = typename View::array_layout;
  auto* p = const_cast<T*>(v.data());
  const index_t rows = static_cast<index_t>(v.extent(0)), cols = static_cast<index_t>(v.extent(1));
  const index_t s0 = static_cast<index_t>(v.stride(0)), s1 = static_cast<index_t>(v.stride(1));
  if constexpr (std::is_same_v<layout, Kokkos::LayoutLeft>) {
    return {p, std::max<index_t>(s1, std::max<index_t>(rows, 1)), false};
  } else if constexpr (std::is_same_v<layout, Kokkos::LayoutRight>) {
    return {p, std::max<index_t>(s0, std::max<index_t>(cols, 1)), true};
  } else {
    // LayoutStride (or another layout with run-time strides): column-major
    // with leading dimension s1, or row-major with s0, where that dimension
    // keeps columns (rows) apart. A smaller one (columns that overlap, or a
    // broadcast stride 0) has no BLAS form.
    const index_t col_ld = std::max<index_t>(rows, 1), row_ld = std::max<index_t>(cols, 1);
    if (rows == 0 || cols == 0) return {p, col_ld, false};  // no entries: no strides to honour
    if ((s0 == 1 || rows <= 1) && (cols <= 1 || s1 >= col_ld)) return {p, cols <= 1 ? col_ld : s1, false};
    if ((s1 == 1 || cols <= 1) && (rows <= 1 || s0 >= row_ld)) return {p, rows <= 1 ? row_ld : s0, true};
    throw invalid_argument(std::string(caller) + ": View " + name + " (" + std::to_string(rows) + " x " +
                           std::to_string(cols) + ") has strides (" + std::to_string(s0) + ", " + std::to_string(s1) +
                           "); one of them must be 1 and the other at least the extent it steps over (no overlapping"
                           " or broadcast entries). Copy it into a LayoutLeft or LayoutRight View first.");
  }
}

}  // namespace egemm::kokkos
