// The stream API's checks before anything runs: no CUDA device is an
// egemm::unsupported naming cudaGetDeviceCount's answer (this one runs on any
// machine); and the pointer checks, which remember per thread the
// allocations they found to be the current device's memory
// (backends/cuda/runtime/memory_kind.cu), still refuse host memory with a
// stream, device memory without one, and a freed allocation, however often
// the memory was passed before, with C untouched.
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "device_support.hpp"

namespace egemm {
namespace {

constexpr index_t n = 64;

std::vector<float> filled(float value) { return std::vector<float>(n * n, value); }

// Runs `call`, which must throw E with `says` in its message.
template <class E, class Call>
void expect_refused(Call&& call, const std::string& says) {
  try {
    call();
    ADD_FAILURE() << "no error; expected one saying '" << says << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

// Without a CUDA device the stream API says so first, whatever the pointers
// are (here host memory, which a machine with a GPU refuses as such), for an
// empty call too. With one, the other branch: host memory with a stream is
// refused as host memory.
TEST(CudaPointerChecks, TheStreamApiSaysWhenThereIsNoCudaDevice) {
  int devices = 0;
  const cudaError_t answer = cudaGetDeviceCount(&devices);
  (void)cudaGetLastError();
  std::vector<float> a = filled(1.0f), b = filled(1.0f), c = filled(-7.0f);
  const auto call = [&](index_t m) {
    gemm(EmulatedFP32{}, 'N', 'N', m, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n, nullptr);
  };
  if (answer != cudaSuccess || devices == 0) {
    const std::string says = answer != cudaSuccess ? std::string("answered ") + cudaGetErrorName(answer) : "found 0 devices";
    expect_refused<unsupported>([&] { call(n); }, "there is no CUDA device: cudaGetDeviceCount " + says);
    expect_refused<unsupported>([&] { call(0); }, "there is no CUDA device");
    expect_refused<unsupported>(
        [&] { gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n, nullptr); },
        "there is no CUDA device");
    EXPECT_FALSE(cuda_available());
  } else {
    expect_refused<invalid_argument>([&] { call(n); }, "A is host memory, but a CUDA stream was given");
  }
  EXPECT_EQ(c, filled(-7.0f)) << "C was written";
}

void device_call(const float* a, const float* b, float* c, cudaStream_t stream = nullptr) {
  gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a, n, b, n, 0.0f, c, n, stream);
}

// Device memory passed many times (the checks remember it) is still refused
// by the host API, and host memory beside it by the stream API; the calls
// with the right memory keep running, with C right.
TEST(CudaPointerChecks, KnownDeviceMemoryDoesNotHideTheErrors) {
  EGEMM_REQUIRE_GPU();
  test::DeviceBuffer<float> a(filled(1.0f)), b(filled(2.0f)), c(filled(-7.0f));
  test::OwnedStream stream;
  for (int i = 0; i < 3; ++i) device_call(a.get(), b.get(), c.get(), stream.get());
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  EXPECT_EQ(c.download(), filled(2.0f * n));

  std::vector<float> host_a = filled(1.0f), host_c = filled(-7.0f);
  c.upload(filled(-7.0f));
  expect_refused<invalid_argument>([&] { device_call(a.get(), b.get(), host_c.data(), stream.get()); },
                                   "C is host memory, but a CUDA stream was given");
  expect_refused<invalid_argument>([&] { device_call(host_a.data(), b.get(), c.get(), stream.get()); },
                                   "A is host memory, but a CUDA stream was given");
  expect_refused<invalid_argument>(
      [&] { gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, a.get(), n, host_a.data(), n, 0.0f, host_c.data(), n); },
      "A is device memory, but no CUDA stream was given");
  expect_refused<invalid_argument>(
      [&] { gemm(NativeFP32{}, 'N', 'N', n, n, n, 1.0f, host_a.data(), n, host_a.data(), n, 0.0f, c.get(), n); },
      "C is device memory, but no CUDA stream was given");
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  EXPECT_EQ(c.download(), filled(-7.0f)) << "C was written";
  EXPECT_EQ(host_c, filled(-7.0f)) << "C was written";

  // An interior pointer of a known allocation (a submatrix: rows 1 to n - 1 of A) is that allocation's.
  gemm(NativeFP32{}, 'N', 'N', n - 1, n, n, 1.0f, a.get() + 1, n, b.get(), n, 0.0f, c.get(), n, stream.get());
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  const std::vector<float> out = c.download();
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) ASSERT_EQ(out[i + j * n], i + 1 < n ? 2.0f * n : -7.0f) << i << "," << j;
}

// A remembered allocation, freed: a call with it is refused (the runtime
// sees no allocation there: host memory) instead of running on memory that
// is gone. An allocation at the same address after that (cudaMalloc of the
// same size usually returns it) is device memory again, and runs.
TEST(CudaPointerChecks, AFreedAllocationIsRefusedAndItsAddressLearntAgain) {
  EGEMM_REQUIRE_GPU();
  test::DeviceBuffer<float> a(filled(1.0f)), b(filled(2.0f));
  float* c = nullptr;
  test::cuda_ok(cudaMalloc(&c, n * n * sizeof(float)), "cudaMalloc");
  device_call(a.get(), b.get(), c);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  test::cuda_ok(cudaFree(c), "cudaFree");
  expect_refused<invalid_argument>([&] { device_call(a.get(), b.get(), c); }, "C is host memory");
  test::cuda_ok(cudaDeviceSynchronize(), "no launch on the freed memory");

  float* again = nullptr;
  test::cuda_ok(cudaMalloc(&again, n * n * sizeof(float)), "cudaMalloc");
  std::printf("the new allocation %s the freed one's address\n", again == c ? "has" : "does not have");
  test::cuda_ok(cudaMemset(again, 0, n * n * sizeof(float)), "cudaMemset");
  device_call(a.get(), b.get(), again);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  std::vector<float> out(n * n);
  test::cuda_ok(cudaMemcpy(out.data(), again, out.size() * sizeof(float), cudaMemcpyDeviceToHost), "download");
  EXPECT_EQ(out, filled(2.0f * n));
  test::cuda_ok(cudaFree(again), "cudaFree");
}

// The same address as another kind of memory: pageable host memory mapped
// where a remembered allocation was (mmap at that address, where the driver
// no longer holds it), or else page-locked host memory if the runtime hands
// out that address. The call must refuse it as host memory and leave it as it
// was. Where neither lands there the test says so and skips.
TEST(CudaPointerChecks, HostMemoryAtAFreedAllocationsAddressIsRefused) {
  EGEMM_REQUIRE_GPU();
  test::DeviceBuffer<float> a(filled(1.0f)), b(filled(2.0f));
  const std::size_t bytes = std::size_t{2} << 20;  // a whole large page: a range the driver may give back
  float* c = nullptr;
  test::cuda_ok(cudaMalloc(&c, bytes), "cudaMalloc");
  device_call(a.get(), b.get(), c);
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  test::cuda_ok(cudaFree(c), "cudaFree");

  void* host = mmap(c, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  const bool mapped = host == c;
  if (host != MAP_FAILED && !mapped) munmap(host, bytes);  // an old kernel ignores the flag and maps elsewhere
  std::vector<void*> pinned;
  if (!mapped)
    for (int i = 0; i < 16; ++i) {
      void* p = nullptr;
      if (cudaMallocHost(&p, bytes) != cudaSuccess) break;
      pinned.push_back(p);
      if (p == c) break;
    }
  const bool landed = mapped || (!pinned.empty() && pinned.back() == c);
  if (landed) {
    std::fill(c, c + n * n, -7.0f);
    if (mapped)
      expect_refused<invalid_argument>([&] { device_call(a.get(), b.get(), c); }, "C is host memory");
    else  // page-locked memory is taken by the stream API (the GPU reaches it): it must run, into that memory
      device_call(a.get(), b.get(), c);
    test::cuda_ok(cudaDeviceSynchronize(), "sync");
    EXPECT_EQ(std::vector<float>(c, c + n * n), filled(mapped ? -7.0f : 2.0f * n));
  }
  if (mapped) munmap(c, bytes);
  for (void* p : pinned) (void)cudaFreeHost(p);
  if (!landed) GTEST_SKIP() << "neither mmap nor cudaMallocHost gave the freed allocation's address back here";
}

// Each thread remembers its own allocations: on a thread of its own, after
// its first call with them, the errors hold there too.
TEST(CudaPointerChecks, AnotherThreadLearnsAndRefusesOnItsOwn) {
  EGEMM_REQUIRE_GPU();
  test::DeviceBuffer<float> a(filled(1.0f)), b(filled(2.0f)), c(filled(-7.0f));
  device_call(a.get(), b.get(), c.get());
  std::vector<float> host_c = filled(-7.0f);
  std::string error;
  std::thread other([&] {
    try {
      device_call(a.get(), b.get(), c.get());
      device_call(a.get(), b.get(), host_c.data());
    } catch (const invalid_argument& e) {
      error = e.what();
    }
  });
  other.join();
  EXPECT_NE(error.find("C is host memory"), std::string::npos) << error;
  test::cuda_ok(cudaDeviceSynchronize(), "sync");
  EXPECT_EQ(c.download(), filled(2.0f * n));
  EXPECT_EQ(host_c, filled(-7.0f));
}

}  // namespace
}  // namespace egemm
