// Several GPUs in one process: every per-device cache (handles, memory pool,
// kernel attributes, the tile model's resources) is keyed by the device a call
// runs on, so calls may alternate between devices; operands the current device
// cannot reach, and a stream of another device, are refused with a message.
// Needs two visible GPUs; with fewer it skips, saying so (a skipped test is
// not a passed one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device_support.hpp"

namespace egemm {
namespace {

// Makes `device` current for one scope.
class CurrentDevice {
 public:
  explicit CurrentDevice(int device) {
    test::cuda_ok(cudaGetDevice(&previous_), "cudaGetDevice");
    test::cuda_ok(cudaSetDevice(device), "cudaSetDevice");
  }
  ~CurrentDevice() { (void)cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

int visible_devices() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return 0;
  return count;
}

TEST(CudaMultiDevice, CallsAlternateBetweenDevices) {
  EGEMM_REQUIRE_GPU();
  const int devices = visible_devices();
  if (devices < 2) GTEST_SKIP() << "needs two GPUs; " << devices << " visible";
  // Device 0, 1, 0, 1: the second visit to each device reuses what the first set up.
  for (int visit = 0; visit < 2; ++visit)
    for (int device = 0; device < 2; ++device) {
      SCOPED_TRACE("device " + std::to_string(device) + ", visit " + std::to_string(visit));
      const CurrentDevice current(device);
      for_each_policy([&](auto tag) {
        test::check_device_gemm(tag, {'N', 'T', 300 + 40 * device, 260, 200 + visit, 0.75f, 0.5f, 1});
      });
      // A size the Hopper kernel runs with many tiles and its model's pick.
      test::check_device_gemm(EmulatedFP32{}, {'T', 'N', 1024, 768, 256, 1.0f, 0.0f, 0});
      if (::testing::Test::HasFailure()) return;
    }
}

// Calls on device 0 given device 1's memory (no peer access enabled) or
// device 1's stream throw egemm::invalid_argument naming the GPU, and C stays
// as it was.
TEST(CudaMultiDevice, OtherDevicesOperandsAndStreamsAreRefused) {
  EGEMM_REQUIRE_GPU();
  const int devices = visible_devices();
  if (devices < 2) GTEST_SKIP() << "needs two GPUs; " << devices << " visible";
  constexpr index_t n = 256;
  const std::vector<float> ones(n * n, 1.0f), poison(n * n, -7.0f);
  const CurrentDevice on_1(1);
  test::DeviceBuffer<float> a1(ones), b1(ones), c1(poison);
  test::OwnedStream stream_1;
  // A call on device 1 first: the pointer checks now know a1 and b1 as device
  // 1's memory, and must still refuse them from device 0.
  gemm(EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a1.get(), n, b1.get(), n, 0.0f, c1.get(), n, stream_1.get());
  test::cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const CurrentDevice on_0(0);
  test::DeviceBuffer<float> a0(ones), b0(ones), c0(poison);
  const auto expect_refused = [&](const float* a, const float* b, cudaStream_t stream, const std::string& says) {
    try {
      gemm(EmulatedFP32{}, 'N', 'N', n, n, n, 1.0f, a, n, b, n, 0.0f, c0.get(), n, stream);
      ADD_FAILURE() << "no error; expected one saying '" << says << "'";
    } catch (const egemm::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
    test::cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    EXPECT_EQ(c0.download(), poison) << "C was written";
  };
  int peer_access = 0;
  test::cuda_ok(cudaDeviceCanAccessPeer(&peer_access, 0, 1), "cudaDeviceCanAccessPeer");
  std::printf("device 0 %s reach device 1's memory (peer access not enabled by this test)\n",
              peer_access ? "could" : "cannot");
  expect_refused(a1.get(), b0.get(), nullptr, "A is memory of GPU 1");
  expect_refused(a0.get(), b1.get(), nullptr, "B is memory of GPU 1");
  expect_refused(a0.get(), b0.get(), stream_1.get(), "the stream belongs to GPU 1");
}

}  // namespace
}  // namespace egemm
