// KokkosBlas::gemm(space, egemm::EmulatedFP64{}, ...) on double Views: every
// layout mix and transpose equals the raw API on column-major copies bit for
// bit (row-major C goes through the transpose identity, and EmulatedFP64 is
// symmetric in its operands), beta == 0 never reads C, bad Views throw with
// C untouched. Runs on the default execution space (host with Debian's Kokkos).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "egemm/kokkos.hpp"
#include "kokkos/kokkos_test_views.hpp"
#include "support/fp64_matrices.hpp"

namespace egemm {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using test::Matrix64;

class KokkosFP64 : public test::KokkosTest {};

template <class Layout>
Kokkos::View<double**, Layout, Space> view_of(const Matrix64& m) {
  Kokkos::View<double**, Layout, Space> v("v", m.rows, m.cols);
  auto mirror = Kokkos::create_mirror_view(v);
  for (index_t i = 0; i < m.rows; ++i)
    for (index_t j = 0; j < m.cols; ++j) mirror(i, j) = m(i, j);
  Kokkos::deep_copy(v, mirror);
  return v;
}

template <class View>
Matrix64 read_back(const View& v) {
  Kokkos::fence();
  auto mirror = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(mirror, v);
  Matrix64 out(v.extent(0), v.extent(1));
  for (index_t i = 0; i < out.rows; ++i)
    for (index_t j = 0; j < out.cols; ++j) out(i, j) = mirror(i, j);
  return out;
}

template <class LA, class LB, class LC>
void check_layouts(char ta, char tb, index_t m, index_t n, index_t k, double alpha, double beta) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << ta << tb << " " << typeid(LA).name() << "/" << typeid(LB).name() << "/"
                                    << typeid(LC).name() << " seed " << seed);
  const bool na = ta == 'N', nb = tb == 'N';
  const Matrix64 a = test::random_matrix64(na ? m : k, na ? k : m, seed, test::Fill64::normal);
  const Matrix64 b = test::random_matrix64(nb ? k : n, nb ? n : k, seed + 1, test::Fill64::normal);
  Matrix64 c = test::random_matrix64(m, n, seed + 2);
  auto A = view_of<LA>(a);
  auto B = view_of<LB>(b);
  auto C = view_of<LC>(c);
  const char tra[2] = {ta, 0}, trb[2] = {tb, 0};
  KokkosBlas::gemm(Space{}, EmulatedFP64{}, tra, trb, alpha, A, B, beta, C);
  gemm(EmulatedFP64{}, ta, tb, m, n, k, alpha, a.ptr(), a.ld, b.ptr(), b.ld, beta, c.ptr(), c.ld);
  const Matrix64 got = read_back(C);
  int differ = 0;
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < m; ++i)
      if (test::bits_of(got(i, j)) != test::bits_of(c(i, j)) && differ++ < 3)
        ADD_FAILURE() << "C(" << i << "," << j << ") = " << got(i, j) << ", raw API " << c(i, j);
}

TEST_F(KokkosFP64, EveryLayoutMixAndTransposeMatchesTheRawApi) {
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      check_layouts<L, L, L>(ta, tb, 37, 29, 45, 1.5, 0.0);
      check_layouts<R, R, R>(ta, tb, 37, 29, 45, 1.0, -0.5);
      check_layouts<L, R, L>(ta, tb, 37, 29, 45, -1.0, 2.0);
      check_layouts<R, L, R>(ta, tb, 37, 29, 45, 0.5, 0.0);
      check_layouts<L, L, R>(ta, tb, 16, 65, 17, 1.0, 1.0);
    }
}

TEST_F(KokkosFP64, DefaultSpaceOverloadAndBetaZeroOverNan) {
  const Matrix64 a = test::random_matrix64(8, 6, 1), b = test::random_matrix64(6, 5, 2);
  Matrix64 c(8, 5);
  for (double& v : c.data) v = std::numeric_limits<double>::quiet_NaN();
  auto A = view_of<Kokkos::LayoutLeft>(a);
  auto B = view_of<Kokkos::LayoutLeft>(b);
  auto C = view_of<Kokkos::LayoutLeft>(c);
  KokkosBlas::gemm(EmulatedFP64{}, "N", "N", 1.0, A, B, 0.0, C);
  for (double v : read_back(C).data) EXPECT_FALSE(std::isnan(v));
}

TEST_F(KokkosFP64, BadArgumentsThrowAndLeaveCUntouched) {
  const Matrix64 a = test::random_matrix64(4, 3, 1), b = test::random_matrix64(5, 4, 2);  // k mismatch
  const Matrix64 c0 = test::random_matrix64(4, 4, 3);
  auto A = view_of<Kokkos::LayoutLeft>(a);
  auto B = view_of<Kokkos::LayoutLeft>(b);
  auto C = view_of<Kokkos::LayoutLeft>(c0);
  EXPECT_THROW(KokkosBlas::gemm(Space{}, EmulatedFP64{}, "N", "N", 1.0, A, B, 0.0, C), invalid_argument);
  EXPECT_THROW(KokkosBlas::gemm(Space{}, EmulatedFP64{}, "X", "N", 1.0, A, B, 0.0, C), invalid_argument);
  EXPECT_EQ(read_back(C).data, c0.data);
}

}  // namespace
}  // namespace egemm
