// cudaDeviceReset between calls: EGEMM's per-device state (cuBLAS and
// cuBLASLt handles, the kernels' shared-memory opt-ins, the last stream
// checked) dies with the device's context; the next call makes it again and
// runs, and the memory pool, which outlives a reset, is used again
// (backends/cuda/runtime/context_generation.hpp). A program of its own: a reset would also
// end what other tests keep on the device.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <string>
#include <vector>
#include <thread>

#include "device_support.hpp"

namespace egemm {
namespace {

// Each tensor-core kernel family and both SGEMM routes, as the calls after a reset meet them.
void run_every_route(cudaStream_t stream) {
  const cuda::ScopedTuning tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });
  test::check_device_gemm(EmulatedFP32{}, {'N', 'T', 300, 260, 333, 1.0f, 0.5f, 1}, stream);
  test::check_device_gemm(RoundSplit4{}, {'T', 'N', 129, 400, 70, -0.75f, 0.0f, 0}, stream);
  test::check_device_gemm(FullRangeTF32x3{}, {'N', 'N', 200, 130, 100, 1.0f, 2.0f, 0}, stream);
  test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0}, stream);  // cuBLASLt plans
  test::check_device_gemm(NativeFP32{}, {'T', 'T', 70, 60, 50, 2.0f, 1.0f, 0}, stream);
  {
    const cuda::ScopedTuning stream_k([](cuda::Tuning& t) { t.sm90_stream_k = cuda::StreamK::always; });  // the Hopper kernel's partial sums too
    test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 1536, 1536, 256, 1.0f, 0.0f, 0}, stream);
  }
}

// A 4096^3 call whose 128 MiB of scratch EGEMM's pool then holds (RoundSplit4: two FP16 pieces of each operand).
void hold_scratch_in_the_pool() {
  constexpr index_t n = 4096;
  const test::Matrix a = test::random_matrix(n, n, test::fresh_seed()), b = test::random_matrix(n, n, test::fresh_seed());
  test::DeviceBuffer<float> da(a.data), db(b.data), dc(static_cast<std::size_t>(n * n));
  gemm(RoundSplit4{}, 'N', 'N', n, n, n, 1.0f, da.get(), n, db.get(), n, 0.0f, dc.get(), n, nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
}

std::size_t free_device_memory_after_release() {
  release_cached_device_memory();
  std::size_t free = 0, total = 0;
  test::cuda_ok(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

// Each round's calls after a reset run and are right; and the resets leave no
// memory behind: EGEMM's pool, which a reset leaves alive with what it holds,
// is the same pool after it (a pool made again per context would keep the
// old one's 128 MiB).
TEST(CudaDeviceReset, CallsRunAgainAfterEachReset) {
  EGEMM_REQUIRE_GPU();
  std::size_t free_before = 0;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("after " + std::to_string(round) + " resets");
    run_every_route(nullptr);
    {
      const test::OwnedStream stream;  // new after each reset: its handle may repeat an old one's
      run_every_route(stream.get());
    }
    if (::testing::Test::HasFailure()) return;
    hold_scratch_in_the_pool();
    if (round == 0) free_before = free_device_memory_after_release();
    if (round < 2) test::cuda_ok(cudaDeviceReset(), "cudaDeviceReset");  // with the pool holding 128 MiB after round 1
  }
  const std::size_t free_after = free_device_memory_after_release();
  std::printf("free device memory: %zu MiB after the first round, %zu MiB after two resets\n", free_before >> 20,
              free_after >> 20);
  EXPECT_GE(free_after + (std::size_t{64} << 20), free_before) << "the resets left device memory behind";
}

// A thread that made calls before the reset (its handles are the old context's) calls again after it.
TEST(CudaDeviceReset, AThreadsHandlesFromBeforeTheResetAreMadeAgain) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning tensor_cores([](cuda::Tuning& t) { t.small_gemm_fallback = false; });  // the worker's EmulatedFP32 on the kernels
  std::promise<void> reset_done;
  std::promise<void> first_calls_done;
  std::thread worker([&] {
    test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0});
    test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 2048, 2048, 256, 1.0f, 0.0f, 0});
    first_calls_done.set_value();
    reset_done.get_future().wait();
    test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0});
    test::check_device_gemm(EmulatedFP32{}, {'N', 'N', 2048, 2048, 256, 1.0f, 0.0f, 0});
  });
  first_calls_done.get_future().wait();
  test::cuda_ok(cudaDeviceReset(), "cudaDeviceReset");
  reset_done.set_value();
  worker.join();
}

// Pointers the checks remembered before a reset belong to the destroyed
// context: a call with them is refused (they are no allocation now) before
// anything is allocated again (which could reuse their addresses); memory
// allocated after the reset runs.
TEST(CudaDeviceReset, PointersFromBeforeTheResetAreRefused) {
  EGEMM_REQUIRE_GPU();
  constexpr index_t n = 64;
  const std::vector<float> ones(n * n, 1.0f), poison(n * n, -7.0f);
  float* old[3] = {};
  for (float*& p : old) {
    test::cuda_ok(cudaMalloc(&p, n * n * sizeof(float)), "cudaMalloc");
    test::cuda_ok(cudaMemcpy(p, ones.data(), n * n * sizeof(float), cudaMemcpyHostToDevice), "upload");
  }
  for (int i = 0; i < 2; ++i) gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, old[0], n, old[1], n, 0.0f, old[2], n, nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  test::cuda_ok(cudaDeviceReset(), "cudaDeviceReset");  // the three allocations are gone with the context
  try {
    gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, old[0], n, old[1], n, 0.0f, old[2], n, nullptr);
    ADD_FAILURE() << "pointers from before the reset were taken";
  } catch (const egemm::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("A is host memory"), std::string::npos) << e.what();
  }
  test::cuda_ok(cudaDeviceSynchronize(), "no launch on the old pointers");
  test::DeviceBuffer<float> a(ones), b(ones), c(poison);
  std::printf("the new A %s an old allocation's address\n",
              a.get() == old[0] || a.get() == old[1] || a.get() == old[2] ? "has" : "does not have");
  gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a.get(), n, b.get(), n, 0.0f, c.get(), n, nullptr);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  EXPECT_EQ(c.download(), std::vector<float>(n * n, static_cast<float>(n)));
}

// A thread that ends after a reset no call has noticed (as a program does
// that resets the device last): its handles belong to the destroyed context
// and are left, not destroyed, at its exit; the process carries on.
TEST(CudaDeviceReset, AThreadEndingAfterAnUnnoticedResetLeavesItsHandles) {
  EGEMM_REQUIRE_GPU();
  std::promise<void> reset_done;
  std::promise<void> calls_done;
  std::thread worker([&] {
    test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0});  // a cuBLASLt handle
    {
      const cuda::ScopedTuning no_plans([](cuda::Tuning& t) { t.sgemm_plans = false; });  // and a cuBLAS one
      test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0});
    }
    calls_done.set_value();
    reset_done.get_future().wait();
  });  // ends here, its thread_local handles with it
  calls_done.get_future().wait();
  test::cuda_ok(cudaDeviceReset(), "cudaDeviceReset");
  reset_done.set_value();
  worker.join();
  test::check_device_gemm(NativeFP32{}, {'N', 'N', 100, 90, 80, 1.0f, 0.0f, 0});
}

}  // namespace
}  // namespace egemm
