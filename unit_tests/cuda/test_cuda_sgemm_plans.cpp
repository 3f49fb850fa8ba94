// NativeFP32 (and EmulatedFP32's hand-off) runs SGEMM through a cuBLASLt plan
// made once per thread, device and call shape (backends/cuda/cublas/sgemm_plans.hpp):
// within the bound on every transpose, padding and alpha/beta; one plan per
// shape, made again only for a new one; the cache starts over when full; the
// same C as cublasSgemm on the same inputs, to FP32's rounding (bit for bit
// where cuBLASLt picks cublasSgemm's kernel, reported), with operands on any
// 4-byte boundary; the tuning's sgemm_plans = false makes no plan.
#include <cublas_v2.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/cublas/sgemm_plans.hpp"
#include "device_support.hpp"

namespace egemm {
namespace {

// The largest |p - d| / (|d| + 1) over two results of the same product: well
// under 1e-4 where both are FP32 sums of the same terms in some order;
// infinite where an entry is NaN (an entry left unwritten over the poison).
double largest_difference(const std::vector<float>& p, const std::vector<float>& d) {
  double worst = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double difference = std::fabs(static_cast<double>(p[i]) - d[i]) / (std::fabs(d[i]) + 1.0);
    if (std::isnan(difference)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, difference);
  }
  return worst;
}

TEST(CudaSgemmPlans, EveryCaseWithinTheBoundAndOnePlanPerShape) {
  EGEMM_REQUIRE_GPU();
  const test::GemmCase cases[] = {{'N', 'N', 300, 260, 1000, 1.0f, 0.5f, 1},
                                  {'T', 'N', 129, 400, 70, -0.75f, 2.0f, 0},
                                  {'N', 'T', 1000, 700, 300, 1.0f, 0.0f, 3},
                                  {'T', 'T', 65, 33, 17, 0.5f, -1.0f, 2}};
  for (const test::GemmCase& c : cases) {
    SCOPED_TRACE(std::string(1, c.trans_a) + c.trans_b + " " + std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                 std::to_string(c.k));
    const std::size_t before = cuda::sgemm_plans_cached();
    test::check_device_gemm(NativeFP32{}, c);
    const std::size_t made = cuda::sgemm_plans_cached();
    EXPECT_TRUE(made == before + 1 || (before == cuda::max_sgemm_plans && made == 1)) << "a new shape makes one plan";
    test::check_device_gemm(NativeFP32{}, c);  // the same shape (fresh inputs): the plan is reused
    EXPECT_EQ(cuda::sgemm_plans_cached(), made) << "a shape seen before made another plan";
  }
  const cuda::ScopedTuning off([](cuda::Tuning& t) { t.sgemm_plans = false; });
  const std::size_t before = cuda::sgemm_plans_cached();
  test::check_device_gemm(NativeFP32{}, {'N', 'N', 77, 55, 33, 1.0f, 0.0f, 0});
  EXPECT_EQ(cuda::sgemm_plans_cached(), before) << "sgemm_plans = false made a plan";
}

TEST(CudaSgemmPlans, TheCacheStartsOverWhenFull) {
  EGEMM_REQUIRE_GPU();
  for (index_t i = 0; i < static_cast<index_t>(cuda::max_sgemm_plans) + 6; ++i) {
    test::check_device_gemm(NativeFP32{}, {'N', 'T', 16 + i, 24, 40, 1.0f, 0.25f, 0});
    ASSERT_LE(cuda::sgemm_plans_cached(), cuda::max_sgemm_plans);
    if (::testing::Test::HasFailure()) return;
  }
}

// The planned path against cublasSgemm itself on the same device inputs.
TEST(CudaSgemmPlans, SameCAsCublasSgemmToFp32Rounding) {
  EGEMM_REQUIRE_GPU();
  cublasHandle_t h = nullptr;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  // 256 x 256 x 4096 and 512^3: split-k algorithms on an H200, on the thread's split-k workspace.
  const index_t shapes[][3] = {{1024, 1024, 1024}, {2048, 2048, 2048}, {512, 512, 512}, {256, 256, 4096}};
  for (const auto& [m, n, k] : shapes) {
    const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed()),
                       c = test::random_matrix(m, n, test::fresh_seed());
    const test::DeviceBuffer<float> da(a.data), db(b.data), planned(c.data), direct(c.data);
    const float alpha = 1.5f, beta = -0.5f;
    gemm(NativeFP32{}, 'N', 'N', m, n, k, alpha, da.get(), m, db.get(), k, beta, planned.get(), m, cudaStream_t{});
    ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                          &alpha, da.get(), static_cast<int>(m), db.get(), static_cast<int>(k), &beta, direct.get(),
                          static_cast<int>(m)),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    const std::vector<float> p = planned.download(), d = direct.download();
    std::size_t equal = 0;
    for (std::size_t i = 0; i < p.size(); ++i) equal += p[i] == d[i];
    const double worst = largest_difference(p, d);
    const std::string shape = std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
    std::printf("%s: %zu of %zu entries bit-equal to cublasSgemm's\n", shape.c_str(), equal, p.size());
    RecordProperty("bit_equal_" + shape, static_cast<int>(equal == p.size()));
    EXPECT_LT(worst, 1e-4) << "the planned SGEMM differs from cublasSgemm by more than FP32 rounding allows";
  }
  cublasDestroy(h);
}

// Operands 4, 8 or 12 bytes past a 256-byte boundary (sub-blocks of a
// matrix): each alignment gets a plan whose algorithm can read them, and C
// is cublasSgemm's to FP32 rounding.
TEST(CudaSgemmPlans, OperandsOffTheirAlignmentGetPlansThatFit) {
  EGEMM_REQUIRE_GPU();
  cublasHandle_t h = nullptr;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  const int m = 520, n = 384, k = 300;  // fills a wave of cuBLAS's tiles; k not a multiple of 8
  const test::Matrix a = test::random_matrix(m + 3, k, test::fresh_seed()), b = test::random_matrix(k + 3, n, test::fresh_seed()),
                     c = test::random_matrix(m + 3, n, test::fresh_seed());
  const test::DeviceBuffer<float> da(a.data), db(b.data);
  for (const int offset : {0, 1, 2, 3}) {
    SCOPED_TRACE("operands " + std::to_string(4 * offset) + " bytes off");
    const test::DeviceBuffer<float> planned(c.data), direct(c.data);
    const float alpha = 1.0f, beta = 0.5f;
    const std::size_t before = cuda::sgemm_plans_cached();
    // lda = m + 3 and so on: every column starts off the boundary too.
    gemm(NativeFP32{}, 'N', 'N', m, n, k, alpha, da.get() + offset, m + 3, db.get() + offset, k + 3, beta,
         planned.get() + offset, m + 3, cudaStream_t{});
    EXPECT_LE(cuda::sgemm_plans_cached(), before + 1);
    ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da.get() + offset, m + 3, db.get() + offset,
                          k + 3, &beta, direct.get() + offset, m + 3),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    EXPECT_LT(largest_difference(planned.download(), direct.download()), 1e-4)
        << "C differs from cublasSgemm's by more than FP32 rounding allows (or outside C)";
  }
  cublasDestroy(h);
}

// `count` independent 512^3 products (a split-k algorithm on an H200) on
// fresh operands, their C poisoned, for tests that enqueue them from several
// streams or threads and then check each against cublasSgemm on the same inputs.
class SplitKProducts {
 public:
  static constexpr index_t n = 512;
  explicit SplitKProducts(int count) {
    const std::vector<float> poison(static_cast<std::size_t>(n * n), std::numeric_limits<float>::quiet_NaN());
    for (int i = 0; i < count; ++i) {
      a_.push_back(std::make_unique<test::DeviceBuffer<float>>(test::random_matrix(n, n, test::fresh_seed()).data));
      b_.push_back(std::make_unique<test::DeviceBuffer<float>>(test::random_matrix(n, n, test::fresh_seed()).data));
      c_.push_back(std::make_unique<test::DeviceBuffer<float>>(poison));
      direct_.push_back(std::make_unique<test::DeviceBuffer<float>>(poison));
    }
  }
  // Product i through EGEMM's SGEMM hand-off on `stream`.
  void enqueue(int i, cudaStream_t stream) {
    gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a_[i]->get(), n, b_[i]->get(), n, 0.0f, c_[i]->get(), n, stream);
  }
  // After every product was enqueued: each C is cublasSgemm's to FP32 rounding.
  void expect_each_is_cublas_sgemms() {
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    cublasHandle_t h = nullptr;
    ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
    const float one = 1.0f, zero = 0.0f;
    for (std::size_t i = 0; i < a_.size(); ++i)
      ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a_[i]->get(), n, b_[i]->get(), n, &zero,
                            direct_[i]->get(), n),
                CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    cublasDestroy(h);
    for (std::size_t i = 0; i < a_.size(); ++i)
      EXPECT_LT(largest_difference(c_[i]->download(), direct_[i]->download()), 1e-4) << "product " << i;
  }

 private:
  std::vector<std::unique_ptr<test::DeviceBuffer<float>>> a_, b_, c_, direct_;
};

// Products enqueued on two streams in turn without a sync: each stream's
// products share the thread's split-k workspace with the other's, ordered by its event.
TEST(CudaSgemmPlans, TheSplitKWorkspaceIsOrderedAcrossStreams) {
  EGEMM_REQUIRE_GPU();
  constexpr int count = 8;
  test::OwnedStream streams[2];
  SplitKProducts products(count);
  for (int i = 0; i < count; ++i) products.enqueue(i, streams[i % 2].get());
  products.expect_each_is_cublas_sgemms();
}

// A thread's split-k workspace passes to the next thread when it ends. The
// first thread enqueues a long product and then split-k products on a stream
// and ends without a sync; the second takes its workspace and does the same on
// its cudaStreamPerThread (another stream under the handle value every thread
// shares), so that the two threads' products would run at once were the
// second's not ordered after the first's last use. They must be: two split-k
// products on one workspace at once corrupt each other's partial sums.
// The second thread ends only once the check has synchronised the device: a
// thread that ended with work queued on its own cudaStreamPerThread, after the
// tests before this one in the same process, hung in the CUDA driver's
// thread-exit cleanup with the GPU idle (H200, driver 580.159.04), so no
// thread here ends with its per-thread stream busy.
TEST(CudaSgemmPlans, AWorkspacePassedToAnotherThreadIsOrderedAfterItsLastUse) {
  EGEMM_REQUIRE_GPU();
  constexpr int per_thread = 8;
  constexpr index_t long_n = 4096;  // ~3 ms of SGEMM on an H200 (its C is not checked)
  SplitKProducts products(2 * per_thread);
  test::DeviceBuffer<float> la(static_cast<std::size_t>(long_n * long_n)), lb(la.size()), lc(la.size());
  test::cuda_ok(cudaMemset(la.get(), 0, la.size() * sizeof(float)), "zero");
  test::cuda_ok(cudaMemset(lb.get(), 0, lb.size() * sizeof(float)), "zero");
  products.enqueue(0, nullptr);  // the plan's set-up (and cuBLASLt's first load) before the threads
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  const auto long_product = [&](cudaStream_t stream) {
    gemm(NativeFP32{}, 'N', 'N', long_n, long_n, long_n, 1.0f, la.get(), long_n, lb.get(), long_n, 0.0f, lc.get(),
         long_n, stream);
  };
  test::OwnedStream first_stream;
  std::thread([&] {
    long_product(first_stream.get());
    for (int i = 0; i < per_thread; ++i) products.enqueue(i, first_stream.get());
  }).join();  // its products still queued: its workspace goes to the next thread
  std::mutex mutex;
  std::condition_variable changed;
  bool enqueued = false, checked = false, threw = false;
  std::thread second([&] {
    try {
      long_product(cudaStreamPerThread);
      for (int i = per_thread; i < 2 * per_thread; ++i) products.enqueue(i, cudaStreamPerThread);
    } catch (...) {
      threw = true;  // reported below; the main thread must not wait for products never enqueued
    }
    std::unique_lock<std::mutex> lock(mutex);
    enqueued = true;
    changed.notify_all();
    changed.wait(lock, [&] { return checked; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return enqueued; });
  }
  EXPECT_FALSE(threw) << "the second thread's calls threw";
  products.expect_each_is_cublas_sgemms();  // synchronises the device first
  {
    const std::lock_guard<std::mutex> lock(mutex);
    checked = true;
  }
  changed.notify_all();
  second.join();
}

// Under stream capture the split-k workspace is not used (a replay would
// share it with later calls): the captured hand-off is cublasSgemm's, and
// each replay computes the operands' product as they are then.
TEST(CudaSgemmPlans, ACapturedSplitKProductReplaysCorrectly) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t m = 256, n = 256, k = 4096;
  test::OwnedStream stream;
  const test::Matrix a0 = test::random_matrix(m, k, test::fresh_seed()), b0 = test::random_matrix(k, n, test::fresh_seed());
  test::DeviceBuffer<float> da(a0.data), db(b0.data), dc(static_cast<std::size_t>(m * n)), direct(static_cast<std::size_t>(m * n));
  cudaGraph_t graph = nullptr;
  test::cuda_ok(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  gemm(NativeFP32{}, 'N', 'N', m, n, k, 1.0f, da.get(), m, db.get(), k, 0.0f, dc.get(), m, stream.get());
  test::cuda_ok(cudaStreamEndCapture(stream.get(), &graph), "cudaStreamEndCapture");
  cudaGraphExec_t exec = nullptr;
  test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  cublasHandle_t h = nullptr;
  ASSERT_EQ(cublasCreate(&h), CUBLAS_STATUS_SUCCESS);
  const float one = 1.0f, zero = 0.0f;
  for (int replay = 0; replay < 2; ++replay) {
    const test::Matrix a = test::random_matrix(m, k, test::fresh_seed()), b = test::random_matrix(k, n, test::fresh_seed());
    test::cuda_ok(cudaMemcpy(da.get(), a.data.data(), a.data.size() * sizeof(float), cudaMemcpyHostToDevice), "copy A");
    test::cuda_ok(cudaMemcpy(db.get(), b.data.data(), b.data.size() * sizeof(float), cudaMemcpyHostToDevice), "copy B");
    test::cuda_ok(cudaGraphLaunch(exec, stream.get()), "cudaGraphLaunch");
    test::cuda_ok(cudaStreamSynchronize(stream.get()), "sync");
    ASSERT_EQ(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da.get(), m, db.get(), k, &zero, direct.get(), m),
              CUBLAS_STATUS_SUCCESS);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    EXPECT_LT(largest_difference(dc.download(), direct.download()), 1e-4) << "replay " << replay;
  }
  cublasDestroy(h);
  test::cuda_ok(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  test::cuda_ok(cudaGraphDestroy(graph), "cudaGraphDestroy");
}

}  // namespace
}  // namespace egemm
