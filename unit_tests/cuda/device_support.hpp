// What the GPU tests share: device buffers, running the stream API on device
// copies of host operands, and checks against the float64 reference and the
// host oracle.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda/kernel_dispatch.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "egemm/gemm.hpp"
#include "egemm/log.hpp"
#include "egemm/policy.hpp"
#include "egemm/reference.hpp"
#include "support/gemm_check.hpp"
#include "support/matrices.hpp"

namespace egemm::test {

inline void cuda_ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Skips the test, visibly, where no usable GPU is present.
#define EGEMM_REQUIRE_GPU()                                                                     \
  do {                                                                                          \
    if (!::egemm::cuda_available()) GTEST_SKIP() << "no CUDA device with sm_80+ tensor cores visible"; \
  } while (0)

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    cuda_ok(cudaMalloc(&ptr_, std::max<std::size_t>(count, 1) * sizeof(T)), "cudaMalloc");
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { (void)cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  void upload(const std::vector<T>& host) { upload_at(0, host.data(), host.size()); }
  void upload(const T* host, std::size_t count) { upload_at(0, host, count); }
  // Complete when it returns: from pageable memory cudaMemcpy may return
  // before its DMA lands, and a kernel on a non-blocking stream is not
  // ordered after it (a call on such a stream can read, or have its C
  // overwritten by, the poison still in flight: compute-sanitizer shows it).
  void upload_at(std::size_t first, const T* host, std::size_t count) {
    cuda_ok(cudaMemcpy(ptr_ + first, host, count * sizeof(T), cudaMemcpyHostToDevice), "upload");
    cuda_ok(cudaStreamSynchronize(cudaStreamLegacy), "upload (synchronise)");
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    cuda_ok(cudaMemcpy(host.data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return host;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

// EGEMM_LOG=debug for one scope (the library reads the variable once per
// process, so the tests force the log on instead of setting it).
class ScopedDebugLog {
 public:
  ScopedDebugLog() { ::egemm::detail::force_debug_log(1); }
  ~ScopedDebugLog() { ::egemm::detail::force_debug_log(-1); }
  ScopedDebugLog(const ScopedDebugLog&) = delete;
  ScopedDebugLog& operator=(const ScopedDebugLog&) = delete;
};

// Sets an environment variable for one scope (a null value unsets it, so
// the library makes its own choice whatever the test's caller exported),
// restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      ::setenv(name_, old_.c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

// Whether EmulatedFP32's FP16 path runs the sm_90a TMA kernel here (an sm_90
// GPU, a build holding sm_90a code, no tuning asking otherwise).
inline bool hopper_kernel_runs_here() {
  return cuda::fused_kernel_for(PolicyId::emulated_fp32, EmulationPath::fp16_scaled) ==
         cuda::FusedKernel::wgmma_tma_sm90;
}

// The tuning's sm90_kernel values (for cuda::ScopedTuning) that pick each
// fused kernel this GPU can run: the library's choice and, where that is the
// Hopper TMA kernel, also mma_sync (the mma.sync kernel every other GPU runs).
inline std::vector<cuda::Sm90Kernel> each_fused_kernel_switch() {
  const cuda::ScopedTuning library_choice([](cuda::Tuning& t) { t.sm90_kernel = cuda::Sm90Kernel::model; });
  if (!hopper_kernel_runs_here()) return {cuda::Sm90Kernel::model};
  return {cuda::Sm90Kernel::model, cuda::Sm90Kernel::mma_sync};
}

inline std::string fused_kernel_switch_label(cuda::Sm90Kernel value) {
  return value == cuda::Sm90Kernel::mma_sync ? "mma.sync kernel forced" : "the library's kernel";
}

// The same for the kernels Int8Slices' digits can run here.
inline std::vector<cuda::Sm90Kernel> each_digits_kernel_switch() { return each_fused_kernel_switch(); }

// body(label) under each digits kernel and each of the digits' splits (one
// read; two with the tuning's int8_one_read_split = false), until a test failure.
template <class Body>
void for_each_digits_kernel_and_split(Body&& body) {
  for (const cuda::Sm90Kernel kernel : each_digits_kernel_switch())
    for (const bool one_read : {true, false}) {
      const cuda::ScopedTuning choice([&](cuda::Tuning& t) {
        t.sm90_kernel = kernel;
        t.int8_one_read_split = one_read;
      });
      body(fused_kernel_switch_label(kernel) + (one_read ? "" : ", two-read split"));
      if (::testing::Test::HasFailure()) return;
    }
}

// A non-blocking stream of the current device for one scope.
class OwnedStream {
 public:
  OwnedStream() { cuda_ok(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  ~OwnedStream() { (void)cudaStreamDestroy(stream_); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// `call` captured on `stream` (capture mode `mode`) into a graph the caller then owns.
// Where `call` throws, the capture is ended and its partial graph dropped before the
// exception goes on, so that the stream is usable again.
template <class Call>
cudaGraph_t captured(cudaStream_t stream, cudaStreamCaptureMode mode, Call&& call) {
  cuda_ok(cudaStreamBeginCapture(stream, mode), "cudaStreamBeginCapture");
  try {
    call();
  } catch (...) {
    cudaGraph_t partial = nullptr;
    (void)cudaStreamEndCapture(stream, &partial);
    if (partial != nullptr) (void)cudaGraphDestroy(partial);
    (void)cudaGetLastError();
    throw;
  }
  cudaGraph_t graph = nullptr;
  cuda_ok(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
  return graph;
}

// Elements of A, B and C as stored (leading dimension times columns).
inline std::size_t a_elems(const GemmArgs& g) {
  const index_t cols = g.trans_a == Op::none ? g.k : g.m;
  return static_cast<std::size_t>(cols == 0 ? 0 : g.lda * cols);
}
inline std::size_t b_elems(const GemmArgs& g) {
  const index_t cols = g.trans_b == Op::none ? g.n : g.k;
  return static_cast<std::size_t>(cols == 0 ? 0 : g.ldb * cols);
}
inline std::size_t c_elems(const GemmArgs& g) { return static_cast<std::size_t>(g.ldc * std::max<index_t>(g.n, 1)); }

// g's product through the stream API on device operands laid out as g's.
template <class Policy>
void gemm_on_device(Policy, const GemmArgs& g, const float* a, const float* b, float* c, cudaStream_t stream) {
  gemm(Policy{}, op_char(g.trans_a), op_char(g.trans_b), g.m, g.n, g.k, g.alpha, a, g.lda, b, g.ldb, g.beta, c, g.ldc,
       stream);
}

// The stream API on device copies of g's host operands; C (all of it,
// padding rows included) comes back into g.c.
template <class Policy>
void run_on_device(Policy, const GemmArgs& g, cudaStream_t stream) {
  DeviceBuffer<float> a(a_elems(g)), b(b_elems(g)), c(c_elems(g));
  a.upload(g.a, a.size());
  b.upload(g.b, b.size());
  c.upload(g.c, c.size());
  gemm_on_device(Policy{}, g, a.get(), b.get(), c.get(), stream);
  cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  cuda_ok(cudaMemcpy(g.c, c.get(), c.size() * sizeof(float), cudaMemcpyDeviceToHost), "download C");
}

// Entry-wise: the device result within the a-priori bound of the float64
// reference (check_gemm), and within twice that bound of the host oracle's
// result on the same inputs (both are within the bound of the exact product).
template <class Policy>
double check_device_gemm(Policy, const GemmCase& gc, cudaStream_t stream = nullptr) {
  constexpr PolicyId id = policy_traits<Policy>::id;
  return check_gemm(id, gc, [&](const GemmArgs& g) {
    const std::vector<float> c_in(g.c, g.c + c_elems(g));
    std::vector<float> c_host = c_in;
    run_on_host(Policy{}, g, c_host.data());
    run_on_device(Policy{}, g, stream);
    const std::vector<double> bound = error_bound(id, g, c_in);
    int reported = 0;
    for (index_t j = 0; j < g.n; ++j)
      for (index_t i = 0; i < g.m; ++i) {
        const float d = g.c[i + j * g.ldc], h = c_host[i + j * g.ldc];
        const double diff = std::fabs(static_cast<double>(d) - h);
        if (!(diff <= 2.0 * bound[i + j * g.m]) && reported++ < 5)
          ADD_FAILURE() << "device C(" << i << "," << j << ") = " << d << ", host oracle " << h << ", difference "
                        << diff << " > 2 * bound " << bound[i + j * g.m];
      }
    EXPECT_EQ(reported, 0) << reported << " entries differ from the host oracle by more than twice the bound";
  });
}

}  // namespace egemm::test
