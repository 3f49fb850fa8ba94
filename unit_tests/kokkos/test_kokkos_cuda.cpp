// KokkosBlas::gemm with EGEMM tags on Kokkos::Cuda: CudaUVMSpace and
// CudaHostPinnedSpace Views, a
// Kokkos::Cuda instance on the caller's own stream (the call is ordered on
// that stream and returns without waiting for it), and, when built with
// EGEMM_KOKKOS_GEMM_TPL, the plain KokkosBlas::gemm routed through Kokkos
// Kernels' TPL mechanism (with EGEMM_KOKKOS_DGEMM_TPL, the double one to
// EmulatedFP64). Built only against a CUDA Kokkos.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <set>
#include <string>

#include "egemm/kokkos.hpp"
#include "kokkos/kokkos_test_views.hpp"

namespace egemm {
namespace {

using test::TestView;
using UVM = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaUVMSpace>;
using L = Kokkos::LayoutLeft;
using R = Kokkos::LayoutRight;

class KokkosCuda : public test::KokkosTest {};

#define EXPECT_CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

template <class Policy, class LA, class LB, class LC, class Device>
void check_on(const Kokkos::Cuda& space, char ta, char tb, index_t m, index_t n, index_t k, float alpha, float beta) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << policy_traits<Policy>::name << " " << ta << tb << " seed " << seed);
  TestView<LA, Device> A(ta == 'N' ? m : k, ta == 'N' ? k : m, seed);
  TestView<LB, Device> B(tb == 'N' ? k : n, tb == 'N' ? n : k, seed + 1);
  TestView<LC, Device> C(m, n, seed + 2);
  const test::Expected e = test::expected<Policy>(ta, tb, alpha, A.host, B.host, beta, C.host);
  const char tra[2] = {ta, 0}, trb[2] = {tb, 0};
  KokkosBlas::gemm(space, Policy{}, tra, trb, alpha, A.view, B.view, beta, C.view);
  space.fence();
  EXPECT_EQ(test::count_outside_bound(C.read_back(), e), 0);
}

TEST_F(KokkosCuda, CudaUVMSpaceViewsEveryTag) {
  for_each_policy([](auto tag) {
    using P = decltype(tag);
    check_on<P, L, L, L, UVM>(Kokkos::Cuda{}, 'N', 'T', 70, 33, 129, 1.0f, 0.0f);
    check_on<P, R, L, R, UVM>(Kokkos::Cuda{}, 'T', 'N', 40, 65, 48, -0.5f, 1.5f);
  });
}

// CudaHostPinnedSpace: Kokkos lets Kokkos::Cuda reach it, and so does EGEMM (over the bus).
TEST_F(KokkosCuda, CudaHostPinnedSpaceViewsEveryTag) {
  using Pinned = Kokkos::Device<Kokkos::Cuda, Kokkos::CudaHostPinnedSpace>;
  for_each_policy([](auto tag) {
    using P = decltype(tag);
    check_on<P, L, L, L, Pinned>(Kokkos::Cuda{}, 'N', 'T', 70, 33, 129, 1.0f, 0.0f);
    check_on<P, R, L, R, Pinned>(Kokkos::Cuda{}, 'T', 'N', 40, 65, 48, -0.5f, 1.5f);
  });
}

__device__ inline unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Spins for `ns` nanoseconds per thread, then copies src into dst: work that
// is still running when the host moves on.
struct SlowCopy {
  Kokkos::View<float**, L, Kokkos::Cuda> dst, src;
  unsigned long long ns;
  KOKKOS_FUNCTION void operator()(int idx) const {
    KOKKOS_IF_ON_DEVICE((const unsigned long long t0 = global_ns(); while (global_ns() - t0 < ns) {}))
    const int rows = static_cast<int>(dst.extent(0));
    dst(idx % rows, idx / rows) = src(idx % rows, idx / rows);
  }
};

TEST_F(KokkosCuda, RunsOnTheInstanceStreamWithoutWaiting) {
  cudaStream_t stream = nullptr;
  EXPECT_CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));  // no implicit sync with other streams
  {
    const Kokkos::Cuda space(stream);  // Kokkos does not own (or destroy) the stream
    const index_t m = 96, n = 80, k = 112;
    const std::uint64_t seed = test::fresh_seed();
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    TestView<L> a_source(m, k, seed), B(k, n, seed + 1), C(m, n, seed + 2);
    Kokkos::View<float**, L, Kokkos::Cuda> A("A", m, k);
    Kokkos::deep_copy(A, std::numeric_limits<float>::quiet_NaN());  // what a gemm on another stream would read
    Kokkos::fence();

    Kokkos::parallel_for("egemm_test_slow_copy", Kokkos::RangePolicy<Kokkos::Cuda>(space, 0, static_cast<int>(A.size())),
                         SlowCopy{A, a_source.view, 200'000'000ull});  // 200 ms before A holds its values
    const auto t0 = std::chrono::steady_clock::now();
    KokkosBlas::gemm(space, EmulatedFP32{}, "N", "N", 1.0f, A, B.view, 0.0f, C.view);
    const double call_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(cudaStreamQuery(stream), cudaErrorNotReady) << "the gemm waited for the stream (call took " << call_ms
                                                          << " ms)";
    EXPECT_LT(call_ms, 100.0) << "the gemm call blocked the host";

    space.fence();
    const test::Expected e = test::expected<EmulatedFP32>('N', 'N', 1.0f, a_source.host, B.host, 0.0f, C.host);
    EXPECT_EQ(test::count_outside_bound(C.read_back(), e), 0) << "the gemm did not run after the copy on the same stream";
  }
  EXPECT_CUDA_OK(cudaStreamDestroy(stream));
}

#if defined(EGEMM_KOKKOS_GEMM_TPL)
// The plain KokkosBlas::gemm, routed: the same bits as the tagged call, Kokkos
// Kernels' TPL region pushed, within the routed tag's bound.
std::set<std::string>* regions = nullptr;
void record_region(const char* name) {
  if (regions) regions->insert(name);
}
const char* const routed_region = "KokkosBlas::gemm[TPL_EGEMM,float]";
using Routed = egemm::kokkos::routed_policy;

template <class LA, class LB, class LC, class Device>
void check_routed(char ta, char tb, index_t m, index_t n, index_t k, float alpha, float beta) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << ta << tb << " seed " << seed);
  TestView<LA, Device> A(ta == 'N' ? m : k, ta == 'N' ? k : m, seed);
  TestView<LB, Device> B(tb == 'N' ? k : n, tb == 'N' ? n : k, seed + 1);
  TestView<LC, Device> C_plain(m, n, seed + 2), C_tagged(m, n, seed + 2);
  const test::Expected e = test::expected<Routed>(ta, tb, alpha, A.host, B.host, beta, C_plain.host);
  const char tra[2] = {ta, 0}, trb[2] = {tb, 0};

  std::set<std::string> seen;
  regions = &seen;
  Kokkos::Tools::Experimental::set_push_region_callback(record_region);
  KokkosBlas::gemm(Kokkos::Cuda{}, tra, trb, alpha, A.view, B.view, beta, C_plain.view);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);  // a callback makes Kokkos fence every region
  regions = nullptr;
  EXPECT_EQ(seen.count(routed_region), 1u) << "KokkosBlas::gemm did not go through EGEMM's TPL specialisation";

  KokkosBlas::gemm(Kokkos::Cuda{}, Routed{}, tra, trb, alpha, A.view, B.view, beta, C_tagged.view);
  const test::Matrix plain = C_plain.read_back(), tagged = C_tagged.read_back();
  EXPECT_EQ(plain.data, tagged.data) << "routed and tagged calls differ";
  EXPECT_EQ(test::count_outside_bound(plain, e), 0);
}

TEST_F(KokkosCuda, StockGemmIsRoutedToTheConfiguredTag) {
  std::printf("routed tag: %s\n", policy_traits<Routed>::name);
  check_routed<L, L, L, Kokkos::Cuda>('N', 'N', 64, 48, 80, 1.0f, 0.0f);
  check_routed<R, R, R, Kokkos::Cuda>('T', 'N', 50, 70, 33, 1.5f, -1.0f);
  check_routed<L, R, L, Kokkos::Cuda>('N', 'T', 65, 31, 47, 1.0f, 0.5f);
  check_routed<R, L, R, UVM>('T', 'T', 40, 40, 100, -1.0f, 0.0f);
}

TEST_F(KokkosCuda, NativeFP32TagBypassesTheRouting) {
  TestView<L> A(64, 32, test::fresh_seed()), B(32, 48, test::fresh_seed()), C(64, 48, 1);
  std::set<std::string> seen;
  regions = &seen;
  Kokkos::Tools::Experimental::set_push_region_callback(record_region);
  KokkosBlas::gemm(Kokkos::Cuda{}, NativeFP32{}, "N", "N", 1.0f, A.view, B.view, 0.0f, C.view);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  regions = nullptr;
  EXPECT_EQ(seen.count(routed_region), 0u);
  const test::Expected e = test::expected<NativeFP32>('N', 'N', 1.0f, A.host, B.host, 0.0f, C.host);
  EXPECT_EQ(test::count_outside_bound(C.read_back(), e), 0);
}
#endif

#if defined(EGEMM_KOKKOS_DGEMM_TPL)
// The plain double KokkosBlas::gemm, routed: the bits of the tagged
// EmulatedFP64 call, through EGEMM's double TPL specialisation.
std::set<std::string>* dgemm_regions = nullptr;
void record_dgemm_region(const char* name) {
  if (dgemm_regions) dgemm_regions->insert(name);
}

template <class Layout, class Device>
Kokkos::View<double**, Layout, Device> random_double_view(index_t rows, index_t cols, std::uint64_t seed) {
  Kokkos::View<double**, Layout, Device> v("v", rows, cols);
  auto mirror = Kokkos::create_mirror_view(v);
  const test::Matrix f = test::random_matrix(rows, cols, seed);
  for (index_t i = 0; i < rows; ++i)
    for (index_t j = 0; j < cols; ++j) mirror(i, j) = static_cast<double>(f(i, j)) * (1.0 + 0x1p-30 * j);
  Kokkos::deep_copy(v, mirror);
  return v;
}

template <class LA, class LB, class LC, class Device>
void check_dgemm_routed(char ta, char tb, index_t m, index_t n, index_t k, double alpha, double beta) {
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE(::testing::Message() << ta << tb << " seed " << seed);
  auto A = random_double_view<LA, Device>(ta == 'N' ? m : k, ta == 'N' ? k : m, seed);
  auto B = random_double_view<LB, Device>(tb == 'N' ? k : n, tb == 'N' ? n : k, seed + 1);
  auto C_plain = random_double_view<LC, Device>(m, n, seed + 2), C_tagged = random_double_view<LC, Device>(m, n, seed + 2);
  const char tra[2] = {ta, 0}, trb[2] = {tb, 0};
  std::set<std::string> seen;
  dgemm_regions = &seen;
  Kokkos::Tools::Experimental::set_push_region_callback(record_dgemm_region);
  KokkosBlas::gemm(Kokkos::Cuda{}, tra, trb, alpha, A, B, beta, C_plain);
  Kokkos::Tools::Experimental::set_push_region_callback(nullptr);
  dgemm_regions = nullptr;
  EXPECT_EQ(seen.count("KokkosBlas::gemm[TPL_EGEMM,double]"), 1u)
      << "the double KokkosBlas::gemm did not go through EGEMM's TPL specialisation";
  KokkosBlas::gemm(Kokkos::Cuda{}, egemm::EmulatedFP64{}, tra, trb, alpha, A, B, beta, C_tagged);
  auto plain = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, C_plain);
  auto tagged = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, C_tagged);
  int differ = 0;
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j) differ += test::bits_of(plain(i, j)) != test::bits_of(tagged(i, j));
  EXPECT_EQ(differ, 0) << "routed and tagged double calls differ";
}

TEST_F(KokkosCuda, StockDoubleGemmIsRoutedToEmulatedFP64) {
  check_dgemm_routed<L, L, L, Kokkos::Cuda>('N', 'N', 64, 48, 80, 1.0, 0.0);
  check_dgemm_routed<R, R, R, Kokkos::Cuda>('T', 'N', 50, 70, 33, 1.5, -1.0);
  check_dgemm_routed<L, R, L, UVM>('N', 'T', 65, 31, 47, 1.0, 0.5);
}
#endif

}  // namespace
}  // namespace egemm
