// The CUDA backend against the float64 reference and the host oracle, for
// every policy: all transposes, odd sizes, padded leading dimensions,
// alpha/beta, beta == 0 over a NaN-filled C, a non-default stream, base
// pointers off a 16-byte boundary; and the
// memory-kind checks of both entry points (page-locked host memory taken by both).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "device_support.hpp"
#include "support/typed_policies.hpp"
#include "egemm/errors.hpp"

namespace egemm {
namespace {

template <class Policy>
class CudaGemm : public ::testing::Test {};

TYPED_TEST_SUITE(CudaGemm, test::AllPolicyTypes, test::PolicyNames);

TYPED_TEST(CudaGemm, AllTransposesSizesPaddedLeadingDimensions) {
  EGEMM_REQUIRE_GPU();
  for (index_t size : {1, 7, 33, 257, 1000})
    for (char ta : {'N', 'T'})
      for (char tb : {'N', 'T'}) {
        // m, n, k differ so a swapped extent shows; pad 3 puts NaN rows in every leading dimension.
        const test::GemmCase c{ta, tb, size, size + 2, size + 5, 1.0f, 0.0f, /*pad=*/3};
        test::check_device_gemm(TypeParam{}, c);
        if (::testing::Test::HasFailure()) return;
      }
}

// Random extents (zero included), transposes, paddings, alpha and beta, on
// the default stream: against float64 and the host oracle.
TYPED_TEST(CudaGemm, RandomCases) {
  EGEMM_REQUIRE_GPU();
  for (const test::GemmCase& c : test::random_cases(40, 300)) {
    test::check_device_gemm(TypeParam{}, c);
    if (::testing::Test::HasFailure()) return;
  }
}

TYPED_TEST(CudaGemm, AlphaBeta) {
  EGEMM_REQUIRE_GPU();
  for (float alpha : {1.0f, -0.75f, 3.0f})
    for (float beta : {0.0f, 1.0f, -2.5f}) test::check_device_gemm(TypeParam{}, {'T', 'N', 67, 45, 129, alpha, beta, 2});
}

TYPED_TEST(CudaGemm, NonDefaultStream) {
  EGEMM_REQUIRE_GPU();
  const test::OwnedStream stream;
  test::check_device_gemm(TypeParam{}, {'N', 'T', 150, 131, 97, 0.5f, 2.0f, 1}, stream.get());
  test::check_device_gemm(TypeParam{}, {'T', 'T', 129, 260, 64, 1.0f, 0.0f, 0}, stream.get());
  // The per-thread default stream: a handle value, not a stream object.
  test::check_device_gemm(TypeParam{}, {'N', 'N', 140, 70, 90, 1.0f, 0.5f, 1}, cudaStreamPerThread);
}

// Operands and C starting 1 or 3 floats past a 16-byte boundary, as a
// sub-matrix of a larger one does: every kernel reads and writes the caller's
// memory element by element (only 4-byte alignment may be assumed).
TYPED_TEST(CudaGemm, BasePointersOffFromSixteenBytes) {
  EGEMM_REQUIRE_GPU();
  for (std::size_t offset : {std::size_t{1}, std::size_t{3}})
    test::check_gemm(policy_traits<TypeParam>::id, {'T', 'N', 131, 70, 97, 1.0f, 0.5f, 1}, [&](const GemmArgs& g) {
      test::DeviceBuffer<float> a(test::a_elems(g) + offset), b(test::b_elems(g) + offset), c(test::c_elems(g) + offset);
      a.upload_at(offset, g.a, test::a_elems(g));
      b.upload_at(offset, g.b, test::b_elems(g));
      c.upload_at(offset, g.c, test::c_elems(g));
      test::gemm_on_device(TypeParam{}, g, a.get() + offset, b.get() + offset, c.get() + offset, nullptr);
      test::cuda_ok(cudaMemcpy(g.c, c.get() + offset, test::c_elems(g) * sizeof(float), cudaMemcpyDeviceToHost), "C");
    });
}

// The trailing update of a blocked factorisation in device memory:
// A22 -= A21 A12 inside one matrix (support/gemm_check.hpp).
TYPED_TEST(CudaGemm, DisjointBlocksOfOneMatrix) {
  EGEMM_REQUIRE_GPU();
  test::check_trailing_update(policy_traits<TypeParam>::id, [](test::Matrix& m, index_t n, index_t b) {
    test::DeviceBuffer<float> d(m.data);
    gemm(TypeParam{}, 'N', 'N', n - b, n - b, b, -1.0f, d.get() + b, m.ld, d.get() + b * m.ld, m.ld, 1.0f,
         d.get() + b + b * m.ld, m.ld, nullptr);
    m.data = d.download();
  });
}

// k == 0 (A and B null) or alpha == 0 (A and B full of NaN): C = beta C,
// neither operand read; beta == 0 sets C to zero without reading its NaN.
TYPED_TEST(CudaGemm, KZeroOrAlphaZeroScalesCWithoutReadingAOrB) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 37, n = 19, k = 23;
  const test::Matrix c0 = test::random_matrix(m, n, test::fresh_seed());
  test::DeviceBuffer<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)), c(c0.data);
  test::cuda_ok(cudaMemset(a.get(), 0xff, a.size() * sizeof(float)), "NaN A");
  test::cuda_ok(cudaMemset(b.get(), 0xff, b.size() * sizeof(float)), "NaN B");
  for (float beta : {2.0f, 0.0f})
    for (bool zero_depth : {true, false}) {
      SCOPED_TRACE(std::string(zero_depth ? "k == 0" : "alpha == 0") + ", beta " + std::to_string(beta));
      c.upload(beta == 0.0f ? std::vector<float>(c0.data.size(), test::poison_value()) : c0.data);
      if (zero_depth)
        gemm(TypeParam{}, 'N', 'N', m, n, 0, 1.0f, nullptr, m, nullptr, 1, beta, c.get(), m, nullptr);
      else
        gemm(TypeParam{}, 'N', 'N', m, n, k, 0.0f, a.get(), m, b.get(), k, beta, c.get(), m, nullptr);
      const std::vector<float> out = c.download();
      int wrong = 0;
      for (std::size_t i = 0; i < out.size(); ++i) wrong += out[i] != beta * c0.data[i];
      EXPECT_EQ(wrong, 0) << "entries not equal to beta * C";
    }
}

// The same inputs give the same bits, call after call, on the default stream
// and on another: every kernel sums in a fixed order (the split's statistics
// are atomic maxima and flags, whose result does not depend on the order).
TYPED_TEST(CudaGemm, RepeatsBitForBit) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 1100, n = 900, k = 1300;
  const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n));
  const test::OwnedStream other;
  std::vector<std::vector<float>> results;
  for (cudaStream_t stream : {cudaStream_t{nullptr}, other.get(), cudaStream_t{nullptr}}) {
    test::cuda_ok(cudaMemset(dc.get(), 0xff, dc.size() * sizeof(float)), "poison C");
    gemm(TypeParam{}, 'N', 'N', m, n, k, 1.0f, da.get(), m, db.get(), k, 0.0f, dc.get(), m, stream);
    test::cuda_ok(cudaStreamSynchronize(stream), "sync");
    results.push_back(dc.download());
  }
  for (std::size_t r = 1; r < results.size(); ++r)
    EXPECT_EQ(std::memcmp(results[r].data(), results[0].data(), results[0].size() * sizeof(float)), 0)
        << "call " << r << " differs from call 0";
}

// Calls of a few recurring shapes reuse the pool's memory: after a first
// round has grown it, further rounds take no more device memory (a workspace
// that was not handed back would show here), and the handles stay put.
TEST(CudaGemmWorkspace, RepeatedCallsTakeNoMoreMemory) {
  EGEMM_REQUIRE_GPU();
  const index_t sizes[] = {300, 700, 1100};
  test::DeviceBuffer<float> a(test::random_matrix(1100, 1100, test::fresh_seed()).data),
      b(test::random_matrix(1100, 1100, test::fresh_seed()).data), c(1100 * 1100);
  auto round = [&] {
    for (index_t n : sizes)
      for_each_policy([&](auto tag) {
        gemm(tag, 'N', 'T', n, n, n, 1.0f, a.get(), n, b.get(), n, 0.0f, c.get(), n, nullptr);
      });
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
  };
  auto free_bytes = [] {
    std::size_t free = 0, total = 0;
    test::cuda_ok(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  };
  round();
  const std::size_t after_first = free_bytes();
  for (int r = 0; r < 20; ++r) round();
  EXPECT_EQ(free_bytes(), after_first) << "device memory taken by 20 more rounds of the same calls";
}

// The workspace pool keeps its memory between calls; handing it back must not
// break the next call (which grows the pool again), even at a larger size.
TEST(CudaGemmWorkspace, CallsStayCorrectAcrossAPoolRelease) {
  EGEMM_REQUIRE_GPU();
  test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 300, 200, 100, 1.0f, 0.0f, 0});
  release_cached_device_memory();
  test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 520, 480, 300, 1.0f, 0.5f, 0});
  release_cached_device_memory();
  release_cached_device_memory();  // twice in a row: nothing to give back, still fine
  test::check_device_gemm(RoundSplit4{}, {'T', 'N', 64, 64, 64, 1.0f, 0.0f, 0});
}

// beta == 0: C is never read, so NaN in C must not reach the result.
TEST(CudaGemmBetaZero, NaNInCIsNeverRead) {
  EGEMM_REQUIRE_GPU();
  const index_t m = 130, n = 70, k = 40;
  const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(static_cast<std::size_t>(m * n));
  for_each_policy([&](auto tag) {
    test::cuda_ok(cudaMemset(dc.get(), 0xff, dc.size() * sizeof(float)), "cudaMemset");  // all NaN
    gemm(tag, 'N', 'N', m, n, k, 1.0f, da.get(), m, db.get(), k, 0.0f, dc.get(), m, nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    const std::vector<float> c = dc.download();
    index_t nan = 0;
    for (float v : c) nan += std::isnan(v);
    EXPECT_EQ(nan, 0) << policy_traits<decltype(tag)>::name << ": NaN from C leaked through beta == 0";
  });
}

TEST(CudaGemmMemoryKind, HostApiRejectsDevicePointers) {
  EGEMM_REQUIRE_GPU();
  test::DeviceBuffer<float> a(64), b(64), c(64);
  EXPECT_THROW(gemm(EmulatedFP32{}, 'N', 'N', 8, 8, 8, 1.0f, a.get(), 8, b.get(), 8, 0.0f, c.get(), 8), invalid_argument);
}

TEST(CudaGemmMemoryKind, StreamApiRejectsHostPointers) {
  EGEMM_REQUIRE_GPU();
  std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 0.0f);
  for_each_policy([&](auto tag) {
    EXPECT_THROW(gemm(tag, 'N', 'N', 8, 8, 8, 1.0f, a.data(), 8, b.data(), 8, 0.0f, c.data(), 8, nullptr),
                 invalid_argument)
        << policy_traits<decltype(tag)>::name;
  });
  for (float v : c) EXPECT_EQ(v, 0.0f) << "a rejected call wrote C";
}

// Page-locked host memory (cudaMallocHost) of n floats, for one scope.
class PageLockedBuffer {
 public:
  explicit PageLockedBuffer(std::size_t n) : n_(n) {
    test::cuda_ok(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(float)), "cudaMallocHost");
  }
  ~PageLockedBuffer() { (void)cudaFreeHost(p_); }
  PageLockedBuffer(const PageLockedBuffer&) = delete;
  PageLockedBuffer& operator=(const PageLockedBuffer&) = delete;
  float* get() const { return p_; }
  std::vector<float> copy() const { return {p_, p_ + n_}; }
  void fill(const std::vector<float>& v) { std::copy(v.begin(), v.end(), p_); }

 private:
  float* p_ = nullptr;
  std::size_t n_;
};

// Page-locked host memory is reachable from the GPU at the same address (as
// cuBLAS takes it): the stream API runs on it and gives the bits it gives on
// device memory (the same kernels, in the same order); the host API takes it
// as the host memory it is.
TEST(CudaGemmMemoryKind, BothApisRunOnPageLockedHostMemory) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t m = 300, n = 260, k = 333;
  const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(n, k, test::fresh_seed());
  const std::vector<float> poison(static_cast<std::size_t>(m * n), std::numeric_limits<float>::quiet_NaN());
  PageLockedBuffer pa(a.data.size()), pb(b.data.size()), pc(poison.size());
  pa.fill(a.data);
  pb.fill(b.data);
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(poison);
  for_each_policy([&](auto tag) {
    const char* name = policy_traits<decltype(tag)>::name;
    pc.fill(poison);
    dc.upload(poison);
    gemm(tag, 'N', 'T', m, n, k, 1.5f, pa.get(), m, pb.get(), n, 0.0f, pc.get(), m, nullptr);
    gemm(tag, 'N', 'T', m, n, k, 1.5f, da.get(), m, db.get(), n, 0.0f, dc.get(), m, nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    const std::vector<float> on_page_locked = pc.copy(), on_device = dc.download();
    EXPECT_EQ(std::memcmp(on_page_locked.data(), on_device.data(), on_device.size() * sizeof(float)), 0)
        << name << ": page-locked operands gave other bits than device ones";
    EXPECT_TRUE(std::none_of(on_page_locked.begin(), on_page_locked.end(), [](float v) { return std::isnan(v); }))
        << name << ": C left unwritten";

    std::vector<float> host_c = poison;
    pc.fill(poison);
    gemm(tag, 'N', 'T', m, n, k, 1.5f, pa.get(), m, pb.get(), n, 0.0f, pc.get(), m);  // the host fallback
    gemm(tag, 'N', 'T', m, n, k, 1.5f, a.data.data(), m, b.data.data(), n, 0.0f, host_c.data(), m);
    EXPECT_EQ(std::memcmp(pc.copy().data(), host_c.data(), host_c.size() * sizeof(float)), 0)
        << name << ": the host API gave other bits on page-locked memory";
  });
}

}  // namespace
}  // namespace egemm
