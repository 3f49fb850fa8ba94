// Operands and C of more than 2^31 elements: every offset into A and C past
// 32 bits, on the Hopper kernel, the mma.sync kernel and cuBLAS. A (m x k) is
// filled on the device side from a hash of each element's index, so the host
// never holds it; C is checked for unwritten entries everywhere and against
// float64 (with the policy's a-priori bound) on rows spread over all of it.
// About 40 GB of device memory: skipped, with a message, on a smaller GPU.
// Then a leading dimension past 32 bits (~9 GB), and calls whose scratch
// memory does not fit beside operands that fill the GPU: they run in panels
// of C (or hand off to SGEMM) and complete within their bound, the whole
// scratch they asked for (one allocation, the partial sums included) named
// by EGEMM_LOG=debug.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/scratch_panels.hpp"
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
    const cuda::ScopedTuning mma_sync([](cuda::Tuning& t) { t.sm90_kernel = cuda::Sm90Kernel::mma_sync; });
    multiply_and_check<EmulatedFP32>();
  }
  multiply_and_check<RoundSplit4>();  // the plain split (no row scaling), four products
  multiply_and_check<NativeFP32>();   // cuBLAS SGEMM
}

// Whether the current GPU has `bytes` free; skips the test, saying so, when not.
#define EGEMM_REQUIRE_FREE_DEVICE_MEMORY(bytes)                                                       \
  do {                                                                                                \
    std::size_t free_ = 0, total_ = 0;                                                                \
    test::cuda_ok(cudaMemGetInfo(&free_, &total_), "cudaMemGetInfo");                                 \
    if (static_cast<double>(free_) < (bytes))                                                         \
      GTEST_SKIP() << "needs " << (bytes) / 1e9 << " GB of free device memory, this GPU has " << free_ / 1e9; \
  } while (0)

// A's two columns 2^31 + 64 floats apart (~8.6 GB): NativeFP32 and
// EmulatedFP32's hand-off to SGEMM take cuBLAS's 64-bit interface, and
// RoundSplit4's split reads the second column past 32 bits.
TEST(CudaLargeLeadingDimension, LdaPast2To31OnCublasAndTheSplit) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t m = 96, n = 80, k = 2, lda = (index_t{1} << 31) + 64;
  EGEMM_REQUIRE_FREE_DEVICE_MEMORY(4.0 * (lda + m) + (1 << 30));
  const std::uint64_t seed = test::fresh_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const test::Matrix a_host = test::random_matrix(m, k, seed), b_host = test::random_matrix(k, n, seed + 1);
  test::DeviceBuffer<float> a(static_cast<std::size_t>(lda + m)), b(b_host.data), c(static_cast<std::size_t>(m * n));
  a.upload_at(0, a_host.ptr(), m);
  a.upload_at(static_cast<std::size_t>(lda), a_host.ptr() + m, m);
  const GemmArgs compact{Op::none, Op::none, m, n, k, 1.0f, a_host.ptr(), m, b_host.ptr(), k, 0.0f, nullptr, m};
  std::vector<double> ref(static_cast<std::size_t>(m * n));
  reference::gemm_fp64(compact, ref.data());
  const auto check = [&](auto tag) {
    using Policy = decltype(tag);
    SCOPED_TRACE(policy_traits<Policy>::name);
    test::cuda_ok(cudaMemset(c.get(), 0xff, c.size() * sizeof(float)), "poison C");
    gemm(Policy{}, 'N', 'N', m, n, k, 1.0f, a.get(), lda, b.get(), k, 0.0f, c.get(), m, nullptr);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    const std::vector<float> got = c.download();
    const std::vector<double> bound = test::error_bound(policy_traits<Policy>::id, compact, std::vector<float>(got.size()));
    int reported = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(got[i] - ref[i]) <= bound[i]) && reported++ < 5)
        ADD_FAILURE() << "C(" << i % m << "," << i / m << ") = " << got[i] << ", float64 " << ref[i] << ", bound "
                      << bound[i];
    EXPECT_EQ(reported, 0);
  };
  const cuda::ScopedTuning hand_off([](cuda::Tuning& t) { t.small_gemm_fallback = true; });  // the GPU tests run with it off
  EXPECT_FALSE(emulated_fp32_uses_tensor_cores(m, n, k)) << "EmulatedFP32 was to hand off to SGEMM here";
  check(NativeFP32{});
  check(EmulatedFP32{});
  check(RoundSplit4{});
}

// Device memory taken for one scope, all but `left` bytes of what is free (in
// 256 MiB blocks, then smaller, as the driver's pieces allow). EGEMM's pool is
// emptied first, so that a call must ask the driver for its scratch.
class Ballast {
 public:
  explicit Ballast(std::size_t left) {
    release_cached_device_memory();
    std::size_t total = 0;
    for (std::size_t block = std::size_t{256} << 20; block >= (std::size_t{1} << 20); block /= 2)
      for (;;) {
        test::cuda_ok(cudaMemGetInfo(&free_, &total), "cudaMemGetInfo");
        void* p = nullptr;
        if (free_ < block + left || cudaMalloc(&p, block) != cudaSuccess) break;
        blocks_.push_back(p);
      }
    (void)cudaGetLastError();
  }
  ~Ballast() {
    for (void* p : blocks_) (void)cudaFree(p);
  }
  Ballast(const Ballast&) = delete;
  Ballast& operator=(const Ballast&) = delete;
  std::size_t free_bytes() const { return free_; }

 private:
  std::vector<void*> blocks_;
  std::size_t free_ = 0;
};

// What EGEMM_LOG=debug prints while `call` runs with `left` bytes of device memory free.
template <class Call>
std::string debug_log_with_free_memory(std::size_t left, Call call) {
  const test::ScopedDebugLog debug;
  std::string log;
  {
    const Ballast ballast(left);
    ::testing::internal::CaptureStderr();
    call();
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    log = ::testing::internal::GetCapturedStderr();
    std::printf("with %zu MiB free: %s", ballast.free_bytes() >> 20, log.c_str());
  }
  return log;
}

// The MiB the log says the whole call asked for (-1 if it names none).
double logged_scratch_mib(const std::string& log) {
  const std::size_t at = log.find(" MiB of scratch not available");
  if (at == std::string::npos) return -1.0;
  return std::atof(log.c_str() + log.find_last_of(' ', at - 1) + 1);
}

// Entries (rows x cols) of a device C against float64 and `bound_policy`'s
// bound over every path it may take; element e of A is a_at(e), of B b_at(e)
// (column-major, no padding, op 'N').
template <class AAt, class BAt>
void expect_sampled_entries_within_bound(PolicyId bound_policy, const float* c, index_t m, index_t k,
                                         const std::vector<index_t>& rows, const std::vector<index_t>& cols, AAt a_at,
                                         BAt b_at) {
  const auto s = static_cast<index_t>(rows.size()), t = static_cast<index_t>(cols.size());
  test::Matrix a_rows(s, k), b_cols(k, t);
  for (index_t p = 0; p < k; ++p) {
    for (index_t i = 0; i < s; ++i) a_rows(i, p) = a_at(static_cast<std::size_t>(rows[i] + p * m));
    for (index_t j = 0; j < t; ++j) b_cols(p, j) = b_at(static_cast<std::size_t>(p + cols[j] * k));
  }
  std::vector<float> got(static_cast<std::size_t>(s * t));
  std::vector<float> column(static_cast<std::size_t>(m));
  for (index_t j = 0; j < t; ++j) {
    test::cuda_ok(cudaMemcpy(column.data(), c + cols[j] * m, column.size() * sizeof(float), cudaMemcpyDeviceToHost),
                  "C column");
    for (index_t i = 0; i < s; ++i) got[static_cast<std::size_t>(i + j * s)] = column[static_cast<std::size_t>(rows[i])];
  }
  const GemmArgs g{Op::none, Op::none, s, t, k, 1.0f, a_rows.ptr(), s, b_cols.ptr(), k, 0.0f, nullptr, s};
  std::vector<double> ref(got.size());
  reference::gemm_fp64(g, ref.data());
  const std::vector<double> bound = test::error_bound_any_path(bound_policy, g, std::vector<float>(got.size(), 0.0f));
  int reported = 0;
  for (index_t j = 0; j < t; ++j)
    for (index_t i = 0; i < s; ++i) {
      const std::size_t at = static_cast<std::size_t>(i + j * s);
      const double err = std::fabs(got[at] - ref[at]);
      if (!(err <= bound[at]) && reported++ < 5)
        ADD_FAILURE() << "C(" << rows[i] << "," << cols[j] << ") = " << got[at] << ", float64 " << ref[at]
                      << ", error " << err << " > bound " << bound[at];
    }
  EXPECT_EQ(reported, 0) << reported << " sampled entries outside the bound";
}

// Indices spread over [0, extent): the ends, both sides of every multiple of
// `step` (where panels meet), and `more` others.
std::vector<index_t> spread_indices(index_t extent, index_t step, int more) {
  std::vector<index_t> v = {0, extent - 1};
  for (index_t b = step; b < extent; b += step) v.insert(v.end(), {b - 1, b});
  for (int i = 1; i <= more; ++i) v.push_back(extent * i / (more + 1) + 7);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Scratch that does not fit: with 64 MiB free the call runs in panels of C
// (the log says so, naming the 128 MiB it asked for as a whole), and C is
// complete and within the bound, at the seams between panels too. (The
// driver leaves about 1 MiB less free than asked: with 32 MiB, even the
// 1024 x 1024 panels' 32 MiB did not fit on an H200.)
TEST(CudaOutOfMemory, ScratchThatDoesNotFitRunsInPanels) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t n = 4096;  // RoundSplit4's scratch: two operands x two FP16 pieces = 128 MiB
  const test::Matrix a_host = test::random_matrix(n, n, test::fresh_seed()), b_host = test::random_matrix(n, n, test::fresh_seed());
  test::DeviceBuffer<float> a(a_host.data), b(b_host.data);
  const std::vector<float> poison(static_cast<std::size_t>(n * n), std::numeric_limits<float>::quiet_NaN());
  test::DeviceBuffer<float> c(poison);
  const cuda::ScopedTuning whole_tiles([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::never; });  // no partial sums: the split pieces alone
  const std::string log = debug_log_with_free_memory(std::size_t{64} << 20, [&] {
    gemm(RoundSplit4{}, 'N', 'N', n, n, n, 1.0f, a.get(), n, b.get(), n, 0.0f, c.get(), n, nullptr);
  });
  const double whole = logged_scratch_mib(log);  // the pieces and each row's few statistics words
  EXPECT_TRUE(whole >= 128.0 && whole < 129.0) << "expected the log to name the 128 MiB asked for; got: " << log;
  EXPECT_NE(log.find(" panels of "), std::string::npos) << "expected panels of C; got: " << log;
  const std::vector<float> c_after = c.download();
  const auto unwritten = std::count_if(c_after.begin(), c_after.end(), [](float v) { return !std::isfinite(v); });
  EXPECT_EQ(unwritten, 0) << "entries of C not written";
  const std::vector<index_t> seams = spread_indices(n, cuda::panel_granule, 24);
  expect_sampled_entries_within_bound(
      PolicyId::round_split4, c.get(), n, n, seams, seams, [&](std::size_t e) { return a_host.data[e]; },
      [&](std::size_t e) { return b_host.data[e]; });
}

// A call's whole scratch is measured as one allocation before anything is
// enqueued, the Hopper kernels' stream-K partial sums included: EmulatedFP32
// enqueues both paths' gemms, and a second allocation behind the first could
// fail after that gemm had written C. What the log names as the whole is
// therefore more than the split pieces (4096^2 x 4 bytes x 2 pieces x 2
// operands = 256 MiB), and the call, in panels, completes.
TEST(CudaOutOfMemory, StreamKPartialSumsAreInTheCallsOneAllocation) {
  EGEMM_REQUIRE_GPU();
  if (cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) != cuda::FusedKernel::wgmma_tma_sm90)
    GTEST_SKIP() << "not an sm_90 GPU with sm_90a code: the Hopper kernel (the one with partial sums) does not run here";
  constexpr index_t n = 4096;  // 1024 tiles of 128 x 128 on 132 SMs: a partial last round
  const test::Matrix a_host = test::random_matrix(n, n, test::fresh_seed()), b_host = test::random_matrix(n, n, test::fresh_seed());
  test::DeviceBuffer<float> a(a_host.data), b(b_host.data);
  const std::vector<float> poison(static_cast<std::size_t>(n * n), std::numeric_limits<float>::quiet_NaN());
  test::DeviceBuffer<float> c(poison);
  const cuda::ScopedTuning split_tail([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::always; });
  const std::string log = debug_log_with_free_memory(std::size_t{32} << 20, [&] {
    gemm(EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a.get(), n, b.get(), n, 0.0f, c.get(), n, nullptr);
  });
  EXPECT_GT(logged_scratch_mib(log), 256.0) << "expected the one allocation to hold the split pieces (256 MiB) and "
                                               "the partial sums; got: '" << log << "'";
  const std::vector<float> c_after = c.download();
  EXPECT_EQ(std::count_if(c_after.begin(), c_after.end(), [](float v) { return !std::isfinite(v); }), 0)
      << "entries of C not written";
}

// The product of 16384^3 operands resident on the GPU with little device
// memory left: with 1 GiB free, less than a quarter of the whole call's
// scratch, EmulatedFP32 and NormwiseFP32 run in panels of C (their default
// hand-off at small sizes on: the panels are large enough for the tensor
// cores to win); with 128 MiB free, room for no panels large enough to
// win, EmulatedFP32 hands the product to SGEMM. Every entry is written, and sampled entries (both sides of each
// panel seam among them) are within the bound of what ran.
TEST(CudaOutOfMemory, A16384CubedProductWithLittleMemoryFreeCompletes) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t n = 16384;
  constexpr std::size_t elems = static_cast<std::size_t>(n * n);
  EGEMM_REQUIRE_FREE_DEVICE_MEMORY(3.0 * 4.0 * elems + (1 << 30));
  const std::uint64_t seed_a = test::fresh_seed(), seed_b = seed_a + 1;
  SCOPED_TRACE("seed=" + std::to_string(seed_a));
  test::DeviceBuffer<float> a(elems), b(elems), c(elems);
  fill_hashed(a.get(), elems, seed_a);
  fill_hashed(b.get(), elems, seed_b);
  const cuda::ScopedTuning defaults([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  const auto multiply = [&](auto tag, std::size_t left) {
    test::cuda_ok(cudaMemset(c.get(), 0xff, elems * sizeof(float)), "poison C");
    const std::string log = debug_log_with_free_memory(
        left, [&] { gemm(tag, 'N', 'N', n, n, n, 1.0f, a.get(), n, b.get(), n, 0.0f, c.get(), n, nullptr); });
    constexpr std::size_t chunk = std::size_t{1} << 26;
    std::vector<float> host(chunk);
    std::size_t unwritten = 0;
    for (std::size_t begin = 0; begin < elems; begin += chunk) {
      test::cuda_ok(cudaMemcpy(host.data(), c.get() + begin, chunk * sizeof(float), cudaMemcpyDeviceToHost), "C");
      unwritten += static_cast<std::size_t>(std::count_if(host.begin(), host.end(), [](float v) { return !std::isfinite(v); }));
    }
    EXPECT_EQ(unwritten, 0u) << "entries of C not written";
    return log;
  };
  const auto check = [&](auto tag, const std::string& log, bool handed_off) {
    SCOPED_TRACE(policy_traits<decltype(tag)>::name);
    EXPECT_GT(logged_scratch_mib(log), 4096.0) << log;
    EXPECT_EQ(log.find(" panels of ") != std::string::npos, !handed_off) << log;
    EXPECT_EQ(log.find("-> native_fp32 (") != std::string::npos, handed_off) << log;
    const std::vector<index_t> rows = spread_indices(n, 2048, 12), cols = spread_indices(n, 2048, 12);
    expect_sampled_entries_within_bound(
        handed_off ? PolicyId::native_fp32 : policy_traits<decltype(tag)>::id, c.get(), n, n, rows, cols,
        [&](std::size_t e) { return hashed_value(e, seed_a); }, [&](std::size_t e) { return hashed_value(e, seed_b); });
  };
  check(EmulatedFP32{}, multiply(EmulatedFP32{}, std::size_t{1} << 30), false);
  check(NormwiseFP32{}, multiply(NormwiseFP32{}, std::size_t{1} << 30), false);
  check(EmulatedFP32{}, multiply(EmulatedFP32{}, std::size_t{128} << 20), true);
}

}  // namespace
}  // namespace egemm
