// KokkosBlas::gemm with EGEMM tags on Views: every layout mix and transpose
// against the float64 reference and the policy's bound, the stock gemm for
// NativeFP32, and the errors a Kokkos user can make. Runs on the default
// execution space (host with Debian's Kokkos 3.4; Cuda with a CUDA Kokkos).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <string>

#include "egemm/kokkos.hpp"
#include "kokkos/kokkos_test_views.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using test::TestView;

class KokkosGemm : public test::KokkosTest {};

template <class Policy, class LA, class LB, class LC>
void check_layouts(char ta, char tb, index_t m, index_t n, index_t k, float alpha, float beta) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << policy_traits<Policy>::name << " " << ta << tb << " " << typeid(LA).name()
                                    << "/" << typeid(LB).name() << "/" << typeid(LC).name() << " seed " << seed);
  const bool na = ta == 'N' || ta == 'n', nb = tb == 'N' || tb == 'n';
  TestView<LA> A(na ? m : k, na ? k : m, seed);
  TestView<LB> B(nb ? k : n, nb ? n : k, seed + 1);
  TestView<LC> C(m, n, seed + 2);
  const test::Expected e = test::expected<Policy>(ta, tb, alpha, A.host, B.host, beta, C.host);

  const char tra[2] = {ta, 0}, trb[2] = {tb, 0};
  KokkosBlas::gemm(Space{}, Policy{}, tra, trb, alpha, A.view, B.view, beta, C.view);
  const int bad = test::count_outside_bound(C.read_back(), e);
  EXPECT_EQ(bad, 0);
}

template <class Policy>
void check_all_layouts() {
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  for (char ta : {'N', 'T'})
    for (char tb : {'N', 'T'}) {
      check_layouts<Policy, L, L, L>(ta, tb, 37, 29, 45, 1.5f, 0.0f);
      check_layouts<Policy, R, R, R>(ta, tb, 37, 29, 45, 1.0f, -0.5f);
      check_layouts<Policy, L, R, L>(ta, tb, 37, 29, 45, -1.0f, 2.0f);
      check_layouts<Policy, R, L, R>(ta, tb, 37, 29, 45, 0.5f, 0.0f);
      check_layouts<Policy, L, L, R>(ta, tb, 16, 65, 17, 1.0f, 1.0f);
    }
}

// Every tag of all_policies, so a new tag cannot be left out of these tests.
template <class Policy>
class KokkosGemmLayouts : public test::KokkosTest {};
TYPED_TEST_SUITE(KokkosGemmLayouts, test::AllPolicyTypes, test::PolicyNames);

TYPED_TEST(KokkosGemmLayouts, EveryLayoutMixAndTranspose) { check_all_layouts<TypeParam>(); }

// Transposes in either case, and C (the conjugate transpose: a transpose for
// real data), as make_gemm_args takes them, on column- and row-major C.
TEST_F(KokkosGemm, LowerCaseAndConjugateTransposesAreAccepted) {
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  for (char ta : {'n', 't', 'c', 'C'})
    for (char tb : {'n', 't', 'c', 'C'}) {
      check_layouts<EmulatedFP32, L, L, L>(ta, tb, 21, 13, 30, 1.0f, 0.5f);
      check_layouts<EmulatedFP32, R, L, R>(ta, tb, 21, 13, 30, -1.0f, 0.0f);
    }
}

TEST_F(KokkosGemm, NativeFP32IsTheStockGemm) {
  if (egemm::kokkos::routes_stock_gemm && egemm::kokkos::is_cuda_space_v<Space>)
    GTEST_SKIP() << "EGEMM_KOKKOS_GEMM_TPL routes the stock gemm to EGEMM here; test_kokkos_cuda.cpp checks that";
  TestView<Kokkos::LayoutLeft> A(40, 30, test::fresh_seed()), B(30, 20, test::fresh_seed());
  Kokkos::View<float**, Kokkos::LayoutLeft, Space> c1("c1", 40, 20), c2("c2", 40, 20);
  KokkosBlas::gemm(NativeFP32{}, "N", "N", 1.0f, A.view, B.view, 0.0f, c1);
  KokkosBlas::gemm("N", "N", 1.0f, A.view, B.view, 0.0f, c2);
  auto h1 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, c1);
  auto h2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, c2);
  for (int j = 0; j < 20; ++j)
    for (int i = 0; i < 40; ++i) EXPECT_EQ(h1(i, j), h2(i, j));
}

TEST_F(KokkosGemm, SubviewsWithAUnitStrideAreUsedInPlace) {
  // Rows 1..50, columns 3..32 of a bigger LayoutLeft matrix: a LayoutStride
  // View with ld 64 whose first element is 4 bytes past a 16-byte boundary.
  TestView<Kokkos::LayoutLeft> big(64, 40, test::fresh_seed()), B(30, 10, test::fresh_seed()), C(50, 10, 1);
  auto A = Kokkos::subview(big.view, Kokkos::make_pair(1, 51), Kokkos::make_pair(3, 33));
  Kokkos::View<float**, Kokkos::LayoutStride, Space> A_strided = A;
  KokkosBlas::gemm(Space{}, EmulatedFP32{}, "N", "N", 1.0f, A_strided, B.view, 0.0f, C.view);
  const test::Matrix out = C.read_back();
  for (int j = 0; j < 10; ++j)
    for (int i = 0; i < 50; ++i) {
      double s = 0;
      for (int p = 0; p < 30; ++p) s += static_cast<double>(big.host(i + 1, p + 3)) * B.host(p, j);
      EXPECT_NEAR(out(i, j), s, 1e-5) << i << "," << j;
    }
}

// Rows r0.. and columns c0.. of `big`'s host copy, rows x cols.
test::Matrix host_block(const test::Matrix& big, index_t r0, index_t c0, index_t rows, index_t cols) {
  test::Matrix out(rows, cols);
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < rows; ++i) out(i, j) = big(r0 + i, c0 + j);
  return out;
}

// The stride each View has, whatever its layout type: a LayoutLeft (LayoutRight)
// subview keeps its parent's leading dimension, wider than its extent, and a
// whole LayoutLeft (LayoutRight) View seen as LayoutStride has a leading
// dimension exactly its extent.
TEST_F(KokkosGemm, EveryLayoutTypeIsReadWithTheViewsOwnStride) {
  using L = Kokkos::LayoutLeft;
  using R = Kokkos::LayoutRight;
  TestView<L> big_left(64, 40, test::fresh_seed());
  TestView<R> big_right(40, 64, test::fresh_seed());
  auto a_left = Kokkos::subview(big_left.view, Kokkos::make_pair(1, 51), Kokkos::make_pair(3, 33));   // 50 x 30
  auto b_right = Kokkos::subview(big_right.view, Kokkos::make_pair(2, 32), Kokkos::make_pair(5, 15));  // 30 x 10
  const test::Matrix a_host = host_block(big_left.host, 1, 3, 50, 30), b_host = host_block(big_right.host, 2, 5, 30, 10);
  TestView<L> a_whole(50, 30, test::fresh_seed());
  TestView<R> b_whole(30, 10, test::fresh_seed());
  Kokkos::View<float**, Kokkos::LayoutStride, Space> a_tight = a_whole.view, b_tight = b_whole.view;
  TestView<L> C(50, 10, test::fresh_seed());
  const auto check = [&](const auto& A, const test::Matrix& ah, const auto& B, const test::Matrix& bh, const char* what) {
    SCOPED_TRACE(what);
    const test::Expected e = test::expected<EmulatedFP32>('N', 'N', 1.0f, ah, bh, 0.0f, C.host);
    Kokkos::deep_copy(C.view, std::nanf(""));
    KokkosBlas::gemm(Space{}, EmulatedFP32{}, "N", "N", 1.0f, A, B, 0.0f, C.view);
    EXPECT_EQ(test::count_outside_bound(C.read_back(), e), 0);
  };
  check(a_left, a_host, b_right, b_host, "LayoutLeft and LayoutRight subviews");
  check(a_tight, a_whole.host, b_tight, b_whole.host, "whole Views as LayoutStride");
  check(a_left, a_host, b_tight, b_whole.host, "a LayoutLeft subview and a row-major LayoutStride View");
}

template <class F>
void expect_rejected_leaving_c(F call, const std::string& needle) {
  TestView<Kokkos::LayoutLeft> C(8, 8, test::fresh_seed());
  try {
    call(C.view);
    ADD_FAILURE() << "expected egemm::invalid_argument with '" << needle << "'";
  } catch (const egemm::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  const test::Matrix after = C.read_back();
  EXPECT_EQ(after.data, C.host.data) << "C was modified";
}

TEST_F(KokkosGemm, BadArgumentsThrowAndLeaveCUntouched) {
  TestView<Kokkos::LayoutLeft> A(8, 5, test::fresh_seed()), B(6, 8, test::fresh_seed());
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, A.view, B.view, 0.0f, C); },
                            "extents do not match");
  // op(A) with more rows than C, op(B) with more columns: never a slice of them.
  TestView<Kokkos::LayoutLeft> A9(9, 5, test::fresh_seed()), B58(5, 8, test::fresh_seed()), A85(8, 5, test::fresh_seed()),
      B59(5, 9, test::fresh_seed());
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, A9.view, B58.view, 0.0f, C); },
                            "extents do not match: op(A) is 9x5");
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, A85.view, B59.view, 0.0f, C); },
                            "extents do not match");
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "T", "N", 1.0f, A85.view, B58.view, 0.0f, C); },
                            "extents do not match");
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "X", "N", 1.0f, A.view, B.view, 0.0f, C); },
                            "transA");
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "", 1.0f, A.view, B.view, 0.0f, C); },
                            "transB");
  TestView<Kokkos::LayoutLeft> big(16, 16, test::fresh_seed());
  Kokkos::View<float**, Kokkos::LayoutStride, Space> strided(
      big.view.data(), Kokkos::LayoutStride(8, 2, 8, 32));  // neither stride is 1
  TestView<Kokkos::LayoutLeft> Bk(8, 8, test::fresh_seed());
  expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, strided, Bk.view, 0.0f, C); },
                            "one of them must be 1");
  // A unit stride, but columns 2 apart in an 8-row View (they overlap), or a
  // column broadcast with stride 0: no leading dimension describes them.
  Kokkos::View<float**, Kokkos::LayoutStride, Space> overlapping(big.view.data(), Kokkos::LayoutStride(8, 1, 8, 2));
  expect_rejected_leaving_c(
      [&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, overlapping, Bk.view, 0.0f, C); },
      "has strides (1, 2)");
  Kokkos::View<float**, Kokkos::LayoutStride, Space> broadcast(big.view.data(), Kokkos::LayoutStride(8, 1, 8, 0));
  expect_rejected_leaving_c(
      [&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, broadcast, Bk.view, 0.0f, C); },
      "has strides (1, 0)");
  Kokkos::View<float**, Kokkos::LayoutStride, Space> overlapping_rows(big.view.data(), Kokkos::LayoutStride(8, 3, 8, 1));
  expect_rejected_leaving_c(
      [&](auto C) { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, overlapping_rows, Bk.view, 0.0f, C); },
      "has strides (3, 1)");
}

// Every tag keeps the tagged call's contract, NativeFP32 (the stock gemm
// underneath) included: a null View the call reads, or C overlapping an
// operand, throws and leaves C alone; k == 0 scales C by beta, without reading
// C when beta == 0; an empty View's strides do not matter.
TEST_F(KokkosGemm, EveryTagKeepsTheContract) {
  using L = Kokkos::LayoutLeft;
  for_each_policy([&](auto tag) {
    using Tag = decltype(tag);
    SCOPED_TRACE(policy_traits<Tag>::name);
    TestView<L> B(8, 8, test::fresh_seed());
    Kokkos::View<float**, L, Space> null_a(static_cast<float*>(nullptr), 8, 8);
    expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(Tag{}, "N", "N", 1.0f, null_a, B.view, 0.0f, C); },
                              "View A is null but has extents 8 x 8");
    expect_rejected_leaving_c([&](auto C) { KokkosBlas::gemm(Tag{}, "N", "N", 1.0f, C, B.view, 0.0f, C); },
                              "C overlaps A in memory");

    Kokkos::View<float**, L, Space> a0("a0", 8, 0), b0("b0", 0, 8);
    TestView<L> C(8, 8, test::fresh_seed());
    KokkosBlas::gemm(Tag{}, "N", "N", 1.0f, a0, b0, 2.0f, C.view);
    const test::Matrix scaled = C.read_back();
    for (std::size_t i = 0; i < scaled.data.size(); ++i) ASSERT_EQ(scaled.data[i], 2.0f * C.host.data[i]) << i;
    Kokkos::deep_copy(C.view, std::nanf(""));
    KokkosBlas::gemm(Tag{}, "N", "N", 1.0f, a0, b0, 0.0f, C.view);
    for (float v : C.read_back().data) ASSERT_EQ(v, 0.0f);

    // B: 0 x 8, a LayoutStride subview with a zero stride (of an empty dimension).
    Kokkos::View<float***, L, Space> cube("cube", 3, 0, 8);
    Kokkos::View<float**, Kokkos::LayoutStride, Space> empty_b = Kokkos::subview(cube, 1, Kokkos::ALL, Kokkos::ALL);
    TestView<L> D(8, 8, test::fresh_seed());
    KokkosBlas::gemm(Tag{}, "N", "N", 1.0f, a0, empty_b, 0.5f, D.view);
    const test::Matrix halved = D.read_back();
    for (std::size_t i = 0; i < halved.data.size(); ++i) ASSERT_EQ(halved.data[i], 0.5f * D.host.data[i]) << i;
  });
}

// With a row-major C the front end multiplies the transposes (B^T A^T); its
// errors still name the user's Views, and the call's prefix.
TEST_F(KokkosGemm, ErrorsNameTheUsersViewsWhateverTheLayout) {
  using R = Kokkos::LayoutRight;
  TestView<R> C(8, 8, test::fresh_seed()), B(8, 8, test::fresh_seed());
  const test::Matrix before = C.read_back();
  const auto expect_message = [&](auto call, const std::string& needle) {
    try {
      call();
      ADD_FAILURE() << "expected egemm::invalid_argument with '" << needle << "'";
    } catch (const egemm::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
    EXPECT_EQ(C.read_back().data, before.data) << "C was modified";
  };
  expect_message([&] { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, C.view, B.view, 0.0f, C.view); },
                 "KokkosBlas::gemm (EGEMM): C overlaps A in memory");
  expect_message([&] { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, B.view, C.view, 0.0f, C.view); },
                 "KokkosBlas::gemm (EGEMM): C overlaps B in memory");
  Kokkos::View<float**, R, Space> null_a(static_cast<float*>(nullptr), 8, 8);
  expect_message([&] { KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 1.0f, null_a, B.view, 0.0f, C.view); },
                 "KokkosBlas::gemm (EGEMM): View A is null but has extents 8 x 8");
  // As in BLAS, alpha == 0 reads neither operand: a null A is fine then, and C is scaled.
  KokkosBlas::gemm(EmulatedFP32{}, "N", "N", 0.0f, null_a, B.view, 1.0f, C.view);
  EXPECT_EQ(C.read_back().data, before.data);
}

}  // namespace
}  // namespace egemm
