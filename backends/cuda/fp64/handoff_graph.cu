// EmulatedFP64's on-device choice (handoff_graph.hpp): the choosing kernel, the
// conditional node and its bodies, in the caller's capture or in cached graphs.
#include "backends/cuda/fp64/handoff_graph.hpp"

#include <atomic>
#include <cstring>
#include <iterator>
#include <list>
#include <mutex>

#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/relaxed_capture.hpp"
#include "egemm/numerics/fp64_handoff.hpp"

namespace egemm::cuda {
namespace {

// Body 0 of the IF node (condition non-zero) hands off, body 1 emulates.
__global__ void choose_kernel(cudaGraphConditionalHandle handle, HandoffCounts c) {
  const unsigned flagged_a = *c.flagged_a, flagged_b = *c.flagged_b;
  cudaGraphSetConditional(
      handle, numerics::crt::call_hands_off(c.m, c.n, c.sampled[0], c.sampled[1], flagged_a, flagged_b) ? 1u : 0u);
}

// A non-blocking stream per device the bodies are captured on (one capture at a
// time: capture_mutex). Never destroyed, like the library's handles: a reset's
// new context gets a new one.
PerDevice<cudaStream_t> capture_streams;
std::mutex capture_mutex;

// Captures of a body that another thread's synchronising call (cudaFree,
// cudaDeviceSynchronize, a legacy-stream copy) may invalidate part way: the
// capture is relaxed so as not to forbid those calls to the caller's other
// threads, and a capture only records work, so it is begun again.
constexpr int capture_attempts = 4;

// Whether the capture on `s` was invalidated (by another thread's call).
bool capture_invalidated(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(s, &status) == cudaSuccess && status == cudaStreamCaptureStatusInvalidated;
}

// One body as a graph of its own, captured from `body` (nothing added to any
// graph of the caller's where capturing it fails).
cudaGraph_t capture_body(const BodyEnqueue& body) {
  const cudaStream_t s = capture_streams.get([](int) {
    cudaStream_t created = nullptr;
    EGEMM_CUDA_CHECK(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking));
    return created;
  });
  for (int attempt = 1;; ++attempt) {
    EGEMM_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed));
    try {
      body(s);
    } catch (...) {
      const bool again = capture_invalidated(s) && attempt < capture_attempts;
      cudaGraph_t partial = nullptr;
      (void)cudaStreamEndCapture(s, &partial);
      if (partial != nullptr) (void)cudaGraphDestroy(partial);
      (void)cudaGetLastError();  // the capture's own failure, not the caller's
      if (again) continue;
      throw;
    }
    const bool again = capture_invalidated(s) && attempt < capture_attempts;
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(s, &graph);
    if (ended == cudaErrorStreamCaptureInvalidated && again) {
      if (graph != nullptr) (void)cudaGraphDestroy(graph);
      (void)cudaGetLastError();
      continue;
    }
    EGEMM_CUDA_CHECK(ended);
    return graph;
  }
}

struct OwnedGraph {
  cudaGraph_t g = nullptr;
  OwnedGraph() = default;
  OwnedGraph(const OwnedGraph&) = delete;
  OwnedGraph& operator=(const OwnedGraph&) = delete;
  ~OwnedGraph() {
    if (g != nullptr) (void)cudaGraphDestroy(g);
  }
};

// The two bodies, each captured whole as a graph of its own.
struct Bodies {
  OwnedGraph hand_off, emulate;
};

void capture_bodies(Bodies& bodies, const BodyEnqueue& hand_off, const BodyEnqueue& emulate) {
  const std::lock_guard<std::mutex> lock(capture_mutex);
  bodies.hand_off.g = capture_body(hand_off);
  bodies.emulate.g = capture_body(emulate);
}

// Adds to `graph`, after `deps`, the choosing kernel and the IF/ELSE node whose
// bodies hold copies of `bodies` (as child graphs). Returns the conditional node.
// A failure part way leaves the nodes added before it in `graph`.
cudaGraphNode_t add_choice(cudaGraph_t graph, const cudaGraphNode_t* deps, const cudaGraphEdgeData* edges,
                           std::size_t ndeps, const HandoffCounts& counts, const Bodies& bodies) {
  cudaGraphConditionalHandle handle{};
  EGEMM_CUDA_CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 0, 0));

  HandoffCounts args = counts;
  void* params[] = {&handle, &args};
  cudaGraphNodeParams kernel{};
  kernel.type = cudaGraphNodeTypeKernel;
  kernel.kernel.func = reinterpret_cast<void*>(choose_kernel);
  kernel.kernel.gridDim = dim3(1);
  kernel.kernel.blockDim = dim3(1);
  kernel.kernel.kernelParams = params;
  cudaGraphNode_t chooser = nullptr;
  EGEMM_CUDA_CHECK(cudaGraphAddNode(&chooser, graph, deps, edges, ndeps, &kernel));

  cudaGraphNodeParams choice{};
  choice.type = cudaGraphNodeTypeConditional;
  choice.conditional.handle = handle;
  choice.conditional.type = cudaGraphCondTypeIf;
  choice.conditional.size = 2;  // [0]: condition non-zero (hand off), [1]: zero (emulate)
  cudaGraphNode_t node = nullptr;
  EGEMM_CUDA_CHECK(cudaGraphAddNode(&node, graph, &chooser, nullptr, 1, &choice));
  cudaGraphNode_t child = nullptr;
  EGEMM_CUDA_CHECK(cudaGraphAddChildGraphNode(&child, choice.conditional.phGraph_out[0], nullptr, 0, bodies.hand_off.g));
  EGEMM_CUDA_CHECK(cudaGraphAddChildGraphNode(&child, choice.conditional.phGraph_out[1], nullptr, 0, bodies.emulate.g));
  return node;
}

// --- executable graphs for streams not being captured -----------------------------------

struct Cached {
  int device;
  unsigned generation;
  std::vector<long long> key;
  cudaGraphExec_t exec;
};

// At most this many executable graphs across devices, most recently used first.
// Never destroyed at exit (the runtime may be gone by then); those of a context
// since destroyed are dropped, not destroyed (context_generation.hpp).
constexpr std::size_t cache_capacity = 8;

struct ChoiceCache {
  std::mutex mutex;
  std::list<Cached> entries;
  std::atomic<unsigned long long> builds{0};
};

ChoiceCache& cache() {
  static auto* c = new ChoiceCache;
  return *c;
}

void launch_cached(cudaStream_t stream, const HandoffCounts& counts, const std::vector<long long>& key,
                   const BodyEnqueue& hand_off, const BodyEnqueue& emulate) {
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  const unsigned generation = context_generation(device);
  ChoiceCache& c = cache();
  // Held through the launch: another thread's update of a graph between this
  // thread's lookup and its launch would launch that thread's call.
  const std::lock_guard<std::mutex> lock(c.mutex);
  const RelaxedCaptureScope relaxed;  // instantiating may allocate; another stream of this thread may be capturing
  for (auto it = c.entries.begin(); it != c.entries.end();) {
    if (it->generation != context_generation(it->device)) {
      it = c.entries.erase(it);  // its context is gone, and its graph with it
      continue;
    }
    if (it->device == device && it->generation == generation && it->key == key) {
      c.entries.splice(c.entries.begin(), c.entries, it);
      EGEMM_CUDA_CHECK(cudaGraphLaunch(c.entries.front().exec, stream));
      return;
    }
    ++it;
  }
  c.builds.fetch_add(1, std::memory_order_relaxed);
  Bodies bodies;
  capture_bodies(bodies, hand_off, emulate);
  OwnedGraph graph;
  EGEMM_CUDA_CHECK(cudaGraphCreate(&graph.g, 0));
  (void)add_choice(graph.g, nullptr, nullptr, 0, counts, bodies);

  // Full: the least recently used graph of this device takes the new parameters
  // where its topology allows (cudaGraphExecUpdate), else it is replaced.
  cudaGraphExec_t exec = nullptr;
  if (c.entries.size() >= cache_capacity) {
    auto victim = c.entries.end();
    for (auto it = c.entries.begin(); it != c.entries.end(); ++it)
      if (it->device == device) victim = it;
    if (victim == c.entries.end()) victim = std::prev(c.entries.end());
    if (victim->device == device) {
      cudaGraphExecUpdateResultInfo info{};
      if (cudaGraphExecUpdate(victim->exec, graph.g, &info) == cudaSuccess) {
        exec = victim->exec;
      } else {
        (void)cudaGetLastError();  // the update's refusal, not the caller's error
        (void)cudaGraphExecDestroy(victim->exec);
      }
    } else {
      // Another device's, destroyed there: unless that device's context has been
      // reset since (no call there has looked yet), then dropped like the stale
      // entries above, its graph gone with the context.
      if (cudaSetDevice(victim->device) == cudaSuccess) {
        if (victim->generation == current_context_generation(victim->device)) (void)cudaGraphExecDestroy(victim->exec);
        (void)cudaSetDevice(device);
      } else {
        (void)cudaGetLastError();
      }
    }
    c.entries.erase(victim);
  }
  if (exec == nullptr) EGEMM_CUDA_CHECK(cudaGraphInstantiate(&exec, graph.g, 0));
  c.entries.push_front(Cached{device, generation, key, exec});
  EGEMM_CUDA_CHECK(cudaGraphLaunch(exec, stream));
}

}  // namespace

void enqueue_device_choice(cudaStream_t stream, const HandoffCounts& counts, const std::vector<long long>& key,
                           const BodyEnqueue& hand_off, const BodyEnqueue& emulate) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  const cudaGraphEdgeData* edges = nullptr;
  std::size_t ndeps = 0;
  EGEMM_CUDA_CHECK(cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph, &deps, &edges, &ndeps));
  if (status == cudaStreamCaptureStatusNone) return launch_cached(stream, counts, key, hand_off, emulate);
  if (status != cudaStreamCaptureStatusActive)
    throw_cuda_error(cudaErrorStreamCaptureInvalidated, "EmulatedFP64's choice in a capture", __FILE__, __LINE__);
  // CUDA's pattern for conditional nodes in stream capture: the nodes join the
  // capture graph after the stream's current dependencies, and the stream then
  // continues from the conditional node.
  const std::vector<cudaGraphNode_t> dep_nodes(deps, deps + ndeps);
  std::vector<cudaGraphEdgeData> dep_edges;
  if (edges != nullptr) dep_edges.assign(edges, edges + ndeps);
  Bodies bodies;
  capture_bodies(bodies, hand_off, emulate);
  // The same nodes in a graph of EGEMM's own first: a capture graph's nodes cannot be
  // removed while it is being captured (cudaStreamGetCaptureInfo), so a refusal part
  // way (a body a conditional node cannot hold) must come before anything joins it,
  // or the user's graph would keep a choosing kernel that reads the counts unordered
  // with the free of the call's scratch.
  {
    OwnedGraph trial;
    EGEMM_CUDA_CHECK(cudaGraphCreate(&trial.g, 0));
    (void)add_choice(trial.g, nullptr, nullptr, 0, counts, bodies);
  }
  cudaGraphNode_t node = add_choice(graph, dep_nodes.data(), edges != nullptr ? dep_edges.data() : nullptr, ndeps,
                                    counts, bodies);
  EGEMM_CUDA_CHECK(cudaStreamUpdateCaptureDependencies(stream, &node, nullptr, 1, cudaStreamSetCaptureDependencies));
}

int cached_choice_graphs() {
  ChoiceCache& c = cache();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return static_cast<int>(c.entries.size());
}

unsigned long long choice_graph_builds() { return cache().builds.load(std::memory_order_relaxed); }

}  // namespace egemm::cuda
