// Kokkos test helpers: Views filled with fresh random values plus their
// column-major host copy, the float64 reference with the policy's bound, and
// the fixture that skips (visibly) where this Kokkos cannot run.
#pragma once

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "egemm/egemm.hpp"
#include "support/matrices.hpp"

namespace egemm::test {

// Set by main() (kokkos_main.cpp): whether Kokkos was initialised, and why not.
bool kokkos_ready();
const std::string& kokkos_skip_reason();

class KokkosTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!kokkos_ready()) GTEST_SKIP() << kokkos_skip_reason();
  }
};

// A float View of the given layout and memory (any Kokkos device type) with
// uniform [-1, 1) values, and the same matrix column-major on the host.
template <class Layout, class Device = Kokkos::DefaultExecutionSpace>
struct TestView {
  Kokkos::View<float**, Layout, Device> view;
  Matrix host;
  TestView(index_t rows, index_t cols, std::uint64_t seed)
      : view("v", rows, cols), host(random_matrix(rows, cols, seed)) {
    auto mirror = Kokkos::create_mirror_view(view);
    for (index_t i = 0; i < rows; ++i)
      for (index_t j = 0; j < cols; ++j) mirror(i, j) = host(i, j);
    Kokkos::deep_copy(view, mirror);
  }
  Matrix read_back() const {
    Kokkos::fence();
    auto mirror = Kokkos::create_mirror_view(view);
    Kokkos::deep_copy(mirror, view);
    Matrix out(host.rows, host.cols);
    for (index_t i = 0; i < host.rows; ++i)
      for (index_t j = 0; j < host.cols; ++j) out(i, j) = mirror(i, j);
    return out;
  }
};

// The float64 product alpha op(A) op(B) + beta C of the host copies, and the
// a-priori bound of `Policy` on them.
struct Expected {
  std::vector<double> value, bound;
};
template <class Policy>
Expected expected(char ta, char tb, float alpha, const Matrix& a, const Matrix& b, float beta, const Matrix& c) {
  const index_t m = c.rows, n = c.cols, k = ta == 'N' || ta == 'n' ? a.cols : a.rows;
  const GemmArgs args =
      make_gemm_args("test", ta, tb, m, n, k, alpha, a.ptr(), a.ld, b.ptr(), b.ld, beta,
                     const_cast<float*>(c.ptr()), c.ld);  // the reference reads C only
  Expected e;
  e.value.resize(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(args, e.value.data());
  e.bound = error_bound(policy_traits<Policy>::id, args, c.data);
  return e;
}

// Every entry of `out` within the bound; reports the first few that are not.
inline int count_outside_bound(const Matrix& out, const Expected& e) {
  int bad = 0;
  for (index_t j = 0; j < out.cols; ++j)
    for (index_t i = 0; i < out.rows; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * out.rows);
      const double err = std::fabs(out(i, j) - e.value[at]);
      if (!(err <= e.bound[at]) && bad++ < 3)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << out(i, j) << " vs " << e.value[at] << ", bound "
                      << e.bound[at];
    }
  return bad;
}

}  // namespace egemm::test
