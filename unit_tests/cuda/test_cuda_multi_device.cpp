// Several GPUs in one process: every per-device cache (handles, memory pool,
// kernel attributes, the tile model's resources) is keyed by the device a call
// runs on, so calls may alternate between devices. Needs two visible GPUs;
// with fewer it skips, saying so (a skipped test is not a passed one).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>

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

}  // namespace
}  // namespace egemm
