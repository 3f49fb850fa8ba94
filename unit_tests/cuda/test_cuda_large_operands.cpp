// Operands and C of more than 2^31 elements: every offset into A and C past
// 32 bits, on the Hopper kernel, the mma.sync kernel and cuBLAS. A (m x k) is
// filled on the device side from a hash of each element's index, so the host
// never holds it; C is checked for unwritten entries everywhere and against
// float64 (with the policy's a-priori bound) on rows spread over all of it.
// About 40 GB of device memory: skipped, with a message, on a smaller GPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "device_support.hpp"

namespace egemm {
namespace {

// m x k and m x n both past 2^31 elements; odd m, so the last tiles are partial.
constexpr index_t kM = (index_t{1} << 21) + 4097, kN = 1100, kK = 1100;
static_assert(kM * kK > (index_t{1} << 31) && kM * kN > (index_t{1} << 31));

// Uniform in [-1, 1) from an element's index (splitmix64's finaliser): never all zero.
float hashed_value(std::uint64_t index, std::uint64_t seed) {
  std::uint64_t z = index + seed * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<float>(z >> 40) * 0x1p-23f - 1.0f;
}

// Fills `count` floats of device memory at `dst`, element e = hashed_value(e), in host chunks.
void fill_hashed(float* dst, std::size_t count, std::uint64_t seed) {
  constexpr std::size_t chunk = std::size_t{1} << 26;
  std::vector<float> host(chunk);
  const unsigned threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  for (std::size_t begin = 0; begin < count; begin += chunk) {
    const std::size_t size = std::min(chunk, count - begin);
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        for (std::size_t i = t; i < size; i += threads) host[i] = hashed_value(begin + i, seed);
      });
    for (std::thread& w : workers) w.join();
    test::cuda_ok(cudaMemcpy(dst + begin, host.data(), size * sizeof(float), cudaMemcpyHostToDevice), "upload A");
  }
}

class CudaLargeOperands : public ::testing::Test {
 protected:
  void SetUp() override {
    EGEMM_REQUIRE_GPU();
    std::size_t free = 0, total = 0;
    test::cuda_ok(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    // A and C, plus EmulatedFP32's workspace: A's two pieces with room for TF32 (8 bytes an element).
    const double need = 4.0 * (kM * kK + kK * kN + kM * kN) + 8.0 * kM * kK + (1 << 30);
    if (free < need)
      GTEST_SKIP() << "needs " << need / 1e9 << " GB of free device memory, this GPU has " << free / 1e9;
    seed_ = test::fresh_seed();
    a_ = std::make_unique<test::DeviceBuffer<float>>(static_cast<std::size_t>(kM * kK));
    fill_hashed(a_->get(), a_->size(), seed_);
    b_host_ = test::random_matrix(kK, kN, test::fresh_seed());
    b_ = std::make_unique<test::DeviceBuffer<float>>(b_host_.data);
    c_ = std::make_unique<test::DeviceBuffer<float>>(static_cast<std::size_t>(kM * kN));
  }

  // C = A B (beta = 0 over a NaN-poisoned C) by `Policy`, then the checks.
  template <class Policy>
  void multiply_and_check() {
    SCOPED_TRACE(std::string(policy_traits<Policy>::name) + " seed=" + std::to_string(seed_));
    test::cuda_ok(cudaMemset(c_->get(), 0xff, c_->size() * sizeof(float)), "poison C");
    gemm(Policy{}, 'N', 'N', kM, kN, kK, 1.0f, a_->get(), kM, b_->get(), kK, 0.0f, c_->get(), kM, nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    expect_every_entry_written();
    expect_sampled_rows_within_bound(policy_traits<Policy>::id);
  }

 private:
  void expect_every_entry_written() const {
    constexpr std::size_t chunk = std::size_t{1} << 26;
    std::vector<float> host(chunk);
    std::size_t unwritten = 0, first = 0;
    for (std::size_t begin = 0; begin < c_->size(); begin += chunk) {
      const std::size_t size = std::min(chunk, c_->size() - begin);
      test::cuda_ok(cudaMemcpy(host.data(), c_->get() + begin, size * sizeof(float), cudaMemcpyDeviceToHost), "C");
      for (std::size_t i = 0; i < size; ++i)
        if (!std::isfinite(host[i]) && unwritten++ == 0) first = begin + i;
    }
    EXPECT_EQ(unwritten, 0u) << "entries of C not written (or not finite), the first at row " << first % kM
                             << ", column " << first / kM;
  }

  // Rows spread over all of C (the first, the last, and rows whose C offsets pass 2^31 at every column).
  void expect_sampled_rows_within_bound(PolicyId policy) const {
    std::vector<index_t> rows = {0, 1, kM / 2, kM - 2, kM - 1};
    for (index_t r = 7; r < kM; r += kM / 61) rows.push_back(r);
    const index_t s = static_cast<index_t>(rows.size());
    test::Matrix a_rows(s, kK);
    for (index_t i = 0; i < s; ++i)
      for (index_t p = 0; p < kK; ++p) a_rows(i, p) = hashed_value(static_cast<std::uint64_t>(rows[i] + p * kM), seed_);
    std::vector<float> c_rows(static_cast<std::size_t>(s * kN));
    for (index_t i = 0; i < s; ++i)  // row rows[i] of C: kN floats kM apart
      test::cuda_ok(cudaMemcpy2D(&c_rows[i], s * sizeof(float), c_->get() + rows[i], kM * sizeof(float), sizeof(float), kN,
                                 cudaMemcpyDeviceToHost),
                    "C row");
    const GemmArgs g{Op::none, Op::none, s, kN, kK, 1.0f, a_rows.ptr(), s, b_host_.ptr(), kK, 0.0f, nullptr, s};
    std::vector<double> ref(static_cast<std::size_t>(s * kN));
    reference::gemm_fp64(g, ref.data());
    const std::vector<double> bound = test::error_bound(policy, g, std::vector<float>(c_rows.size(), 0.0f));
    int reported = 0;
    for (index_t j = 0; j < kN; ++j)
      for (index_t i = 0; i < s; ++i) {
        const std::size_t at = static_cast<std::size_t>(i + j * s);
        const double err = std::fabs(c_rows[at] - ref[at]);
        if (!(err <= bound[at]) && reported++ < 5)
          ADD_FAILURE() << "C(" << rows[i] << "," << j << ") = " << c_rows[at] << ", float64 " << ref[at] << ", error "
                        << err << " > bound " << bound[at];
      }
    EXPECT_EQ(reported, 0) << reported << " sampled entries outside the bound";
  }

  std::uint64_t seed_ = 0;
  std::unique_ptr<test::DeviceBuffer<float>> a_, b_, c_;
  test::Matrix b_host_{1, 1};
};

TEST_F(CudaLargeOperands, EveryOffsetPast2To31OnEachKernel) {
  multiply_and_check<EmulatedFP32>();  // the Hopper kernel on sm_90, the mma.sync kernel elsewhere
  {
    const test::ScopedEnv mma_sync("EGEMM_SM90_KERNEL", "0");
    multiply_and_check<EmulatedFP32>();
  }
  multiply_and_check<RoundSplit4>();  // the plain split (no row scaling), four products
  multiply_and_check<NativeFP32>();   // cuBLAS SGEMM
}

}  // namespace
}  // namespace egemm
