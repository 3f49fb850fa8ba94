// What a call promises about its stream, for every policy: it only enqueues
// (it returns while the stream is still held shut, so nothing in it waits for
// the GPU), and it can be captured into a CUDA graph whose replays compute the
// product of whatever the operands then hold, even as the first call of its
// thread; and threads may call at once on streams of their own. EmulatedFP32
// both on its kernels and handed to cuBLAS SGEMM (the small-problem fallback).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "device_support.hpp"
#include "support/typed_policies.hpp"

namespace egemm {
namespace {

// Holds a stream shut with a host function until open() (or until the
// timeout): work queued behind it cannot start, so a call that waited for its
// stream would hold the test until the gate gave up.
class StreamGate {
 public:
  explicit StreamGate(cudaStream_t stream) { test::cuda_ok(cudaLaunchHostFunc(stream, &StreamGate::hold, this), "gate"); }
  void open() { open_.store(true); }
  bool gave_up() const { return gave_up_.load(); }

 private:
  static void CUDART_CB hold(void* self) {
    auto* gate = static_cast<StreamGate*>(self);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!gate->open_.load()) {
      if (std::chrono::steady_clock::now() > until) {
        gate->gave_up_.store(true);
        return;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  std::atomic<bool> open_{false}, gave_up_{false};
};

// Device copies of a case's operands (every call of the case has the same
// extents and leading dimensions, whatever the values).
struct DeviceOperands {
  test::DeviceBuffer<float> a, b, c;
  explicit DeviceOperands(const GemmArgs& g) : a(test::a_elems(g)), b(test::b_elems(g)), c(test::c_elems(g)) {}
  void upload(const GemmArgs& g) {
    a.upload(g.a, a.size());
    b.upload(g.b, b.size());
    c.upload(g.c, c.size());
  }
  void download_c(const GemmArgs& g) const {
    test::cuda_ok(cudaMemcpy(g.c, c.get(), c.size() * sizeof(float), cudaMemcpyDeviceToHost), "download C");
  }
  template <class Policy>
  void gemm(Policy, const GemmArgs& g, cudaStream_t stream) const {
    test::gemm_on_device(Policy{}, g, a.get(), b.get(), c.get(), stream);
  }
};

// The same extents as every input check_gemm makes for the case.
GemmArgs shape_of(const test::GemmCase& gc) { return test::make_inputs(gc, 1).args; }

template <class Policy>
void returns_while_the_stream_is_held(const test::GemmCase& gc) {
  test::OwnedStream stream;
  // The first call on a device creates handles and pools, which may wait for
  // the device; what is promised is the steady state.
  test::check_device_gemm(Policy{}, gc, stream.get());
  test::check_gemm(policy_traits<Policy>::id, gc, [&](const GemmArgs& g) {
    DeviceOperands d(g);
    d.upload(g);
    StreamGate gate(stream.get());
    d.gemm(Policy{}, g, stream.get());
    const bool returned_while_held = !gate.gave_up();
    gate.open();
    test::cuda_ok(cudaStreamSynchronize(stream.get()), "cudaStreamSynchronize");
    d.download_c(g);
    EXPECT_TRUE(returned_while_held) << "egemm::gemm waited for its stream: it returned only after the gate gave up";
  });
}

// Replays a captured graph of one call on `d`'s operands, fresh ones each
// time (the graph reads them as they are then), checking each product; then
// destroys the graph.
void check_replays(PolicyId policy, const test::GemmCase& gc, cudaGraph_t graph, DeviceOperands& d,
                   cudaStream_t stream) {
  cudaGraphExec_t exec = nullptr;
  test::cuda_ok(cudaGraphInstantiate(&exec, graph, 0), "cudaGraphInstantiate");
  for (int replay = 0; replay < 2; ++replay) {
    SCOPED_TRACE("replay " + std::to_string(replay));
    test::check_gemm(policy, gc, [&](const GemmArgs& g) {
      d.upload(g);
      test::cuda_ok(cudaGraphLaunch(exec, stream), "cudaGraphLaunch");
      test::cuda_ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      d.download_c(g);
    });
  }
  test::cuda_ok(cudaGraphExecDestroy(exec), "cudaGraphExecDestroy");
  test::cuda_ok(cudaGraphDestroy(graph), "cudaGraphDestroy");
}

template <class Policy>
void capture_and_replay(const test::GemmCase& gc) {
  test::OwnedStream stream;
  const GemmArgs shape = shape_of(gc);
  DeviceOperands d(shape);
  cudaGraph_t graph = nullptr;
  try {
    graph = test::captured(stream.get(), cudaStreamCaptureModeThreadLocal, [&] { d.gemm(Policy{}, shape, stream.get()); });
  } catch (const std::exception& e) {
    FAIL() << "egemm::gemm could not be captured: " << e.what();
  }
  check_replays(policy_traits<Policy>::id, gc, graph, d, stream.get());
}

// On a thread of its own: the call then creates its per-thread state (the
// cuBLAS handle) inside the capture, as an application's first call would.
template <class Policy>
void replays_a_captured_graph(const test::GemmCase& gc) {
  std::thread([&] {
    try {
      capture_and_replay<Policy>(gc);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
    }
  }).join();
}

// Large enough for several blocks of every kernel; odd extents, padded leading dimensions.
constexpr test::GemmCase kReadsC{'N', 'T', 300, 261, 200, 0.75f, 0.5f, 2};
constexpr test::GemmCase kBetaZero{'T', 'N', 257, 300, 129, 1.0f, 0.0f, 1};

template <class Policy>
class CudaStreamSemantics : public ::testing::Test {};

TYPED_TEST_SUITE(CudaStreamSemantics, test::AllPolicyTypes, test::PolicyNames);

TYPED_TEST(CudaStreamSemantics, ACallReturnsWhileItsStreamIsHeld) {
  EGEMM_REQUIRE_GPU();
  returns_while_the_stream_is_held<TypeParam>(kReadsC);
}

TYPED_TEST(CudaStreamSemantics, ACapturedGraphReplaysOnFreshOperands) {
  EGEMM_REQUIRE_GPU();
  for (const test::GemmCase& gc : {kReadsC, kBetaZero}) {
    replays_a_captured_graph<TypeParam>(gc);
    if (::testing::Test::HasFailure()) return;
  }
}

// Host threads calling at once, each on a stream of its own, every policy and
// a different shape each (different workspaces and tiles): the one-time
// set-up, the handles, the memory pool and the path choice are shared or
// per thread as they should be. Run alone, the threads' first calls are also
// the process's.
TEST(CudaStreamSemantics, ThreadsCallingAtOnceOnStreamsOfTheirOwn) {
  EGEMM_REQUIRE_GPU();
  constexpr int threads = 4;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([t] {
      try {
        test::OwnedStream stream;
        for_each_policy([&](auto tag) {
          const index_t base = 96 + 61 * t;
          test::check_device_gemm(tag, {t % 2 ? 'T' : 'N', 'N', base + 7, base + 40, base + 3, 1.0f, 0.25f * t, 1},
                                  stream.get());
        });
      } catch (const std::exception& e) {
        ADD_FAILURE() << "thread " << t << ": " << e.what();
      }
    });
  for (std::thread& w : workers) w.join();
}

// A thread whose calls made cuBLAS and cuBLASLt handles ends while another
// thread captures in the global mode: destroying a cuBLAS handle synchronises
// the device, which that capture refuses a thread in the global mode. The
// capture must come out whole, and its graph replay correctly.
TEST(CudaStreamSemantics, AThreadEndingDuringAnotherThreadsCaptureLeavesItWhole) {
  EGEMM_REQUIRE_GPU();
  for (const bool plans : {false, true}) {  // cublasSgemm's handle, then cuBLASLt's
    SCOPED_TRACE(plans ? "cuBLASLt plans" : "no cuBLASLt plans");
    const cuda::ScopedTuning which([&](cuda::Tuning& t) { t.sgemm_plans = plans; });
    std::promise<void> ready, go;
    std::thread worker([&] {
      try {
        const test::OwnedStream stream;
        test::check_device_gemm(NativeFP32{}, kBetaZero, stream.get());
      } catch (const std::exception& e) {
        ADD_FAILURE() << "worker: " << e.what();
      }
      ready.set_value();
      go.get_future().wait();
    });  // the worker's handles are destroyed as it ends, inside the capture below
    ready.get_future().wait();

    const test::OwnedStream stream;
    const GemmArgs shape = shape_of(kBetaZero);
    DeviceOperands d(shape);
    test::cuda_ok(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeGlobal), "cudaStreamBeginCapture");
    try {
      d.gemm(NativeFP32{}, shape, stream.get());
    } catch (const std::exception& e) {
      ADD_FAILURE() << "egemm::gemm could not be captured: " << e.what();
    }
    go.set_value();
    worker.join();
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(stream.get(), &graph);
    (void)cudaGetLastError();
    ASSERT_EQ(ended, cudaSuccess) << "the capture broke when the worker ended: " << cudaGetErrorString(ended);
    check_replays(PolicyId::native_fp32, kBetaZero, graph, d, stream.get());
  }
}

// The same through the small-problem fallback (cuBLAS SGEMM behind the checks).
TEST(CudaStreamSemantics, TheSgemmHandOffKeepsBothPromises) {
  EGEMM_REQUIRE_GPU();
  const cuda::ScopedTuning fallback([](cuda::Tuning& t) { t.small_gemm_fallback = true; });
  ASSERT_FALSE(emulated_fp32_uses_tensor_cores(kReadsC.m, kReadsC.n, kReadsC.k));
  returns_while_the_stream_is_held<EmulatedFP32>(kReadsC);
  replays_a_captured_graph<EmulatedFP32>(kBetaZero);
}

}  // namespace
}  // namespace egemm
