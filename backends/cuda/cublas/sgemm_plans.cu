// cuBLASLt plans per thread, device and call shape for NativeFP32 and the small-size hand-off.
#include "backends/cuda/cublas/sgemm_plans.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

#include "backends/cuda/cublas/cublas_native.hpp"
#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/thread_handles.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"

namespace egemm::cuda {
namespace {

// The largest power of two up to 256 dividing p's address: cuBLASLt's
// algorithms state the alignment they need, and its heuristic assumes 256
// unless told otherwise.
std::uint32_t alignment_of(const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::uint32_t bytes = 256;
  while (bytes > 4 && address % bytes != 0) bytes /= 2;
  return bytes;
}

struct PlanKey {
  int device;
  Op trans_a, trans_b;
  index_t m, n, k, lda, ldb, ldc;
  std::uint32_t align_a, align_b, align_c;
  bool operator==(const PlanKey& o) const {
    return device == o.device && trans_a == o.trans_a && trans_b == o.trans_b && m == o.m && n == o.n && k == o.k &&
           lda == o.lda && ldb == o.ldb && ldc == o.ldc && align_a == o.align_a && align_b == o.align_b &&
           align_c == o.align_c;
  }
};

struct PlanKeyHash {
  std::size_t operator()(const PlanKey& p) const {
    std::size_t h = static_cast<std::size_t>(p.device) * 4 + (p.trans_a == Op::none ? 1 : 0) + (p.trans_b == Op::none ? 2 : 0);
    for (index_t v : {p.m, p.n, p.k, p.lda, p.ldb, p.ldc}) h = h * 1000003u ^ std::hash<index_t>{}(v);
    return h * 1000003u ^ (p.align_a | p.align_b << 9 | p.align_c << 18);
  }
};

// Descriptors of one call shape and cuBLASLt's first algorithm for it.
class Plan {
 public:
  Plan(cublasLtHandle_t lt, const PlanKey& key) {
    try {
      make(lt, key);
    } catch (...) {
      release();  // a constructor that throws runs no destructor
      throw;
    }
  }
  ~Plan() { release(); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  bool usable() const { return usable_; }
  std::size_t workspace_bytes() const { return workspace_bytes_; }
  void run(cublasLtHandle_t lt, const GemmArgs& g, void* workspace, cudaStream_t stream) const {
    EGEMM_CUBLAS_CHECK(cublasLtMatmul(lt, op_, &g.alpha, g.a, a_, g.b, b_, &g.beta, g.c, c_, g.c, c_, &algo_, workspace,
                                      workspace_bytes_, stream));
  }

 private:
  void make(cublasLtHandle_t lt, const PlanKey& key) {
    EGEMM_CUBLAS_CHECK(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F));  // FP32 math, no TF32
    const cublasOperation_t ta = to_cublas(key.trans_a), tb = to_cublas(key.trans_b);
    EGEMM_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
    EGEMM_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
    // The stored matrices: op(A) is m x k, so A is k x m when transposed; likewise B.
    const bool a_n = key.trans_a == Op::none, b_n = key.trans_b == Op::none;
    EGEMM_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&a_, CUDA_R_32F, a_n ? key.m : key.k, a_n ? key.k : key.m, key.lda));
    EGEMM_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&b_, CUDA_R_32F, b_n ? key.k : key.n, b_n ? key.n : key.k, key.ldb));
    EGEMM_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&c_, CUDA_R_32F, key.m, key.n, key.ldc));
    // Ask with the room cublasSgemm has (its handle's workspace), so that
    // cuBLASLt picks as cublasSgemm would.
    cublasLtMatmulPreference_t preference = nullptr;
    EGEMM_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference));
    const std::size_t room = split_k_workspace_bytes;
    cublasLtMatmulHeuristicResult_t best{};
    int found = 0;
    cublasStatus_t s = cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &room,
                                                            sizeof(room));
    const std::pair<cublasLtMatmulPreferenceAttributes_t, std::uint32_t> alignments[] = {
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, key.align_a},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, key.align_b},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, key.align_c},
        {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, key.align_c}};  // D is C
    for (const auto& [attribute, bytes] : alignments)
      if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatmulPreferenceSetAttribute(preference, attribute, &bytes, sizeof(bytes));
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasLtMatmulAlgoGetHeuristic(lt, op_, a_, b_, c_, c_, preference, 1, &best, &found);
    (void)cublasLtMatmulPreferenceDestroy(preference);
    // No algorithm (or an unsupported shape) is not an error: cublasSgemm takes the call.
    usable_ = s == CUBLAS_STATUS_SUCCESS && found > 0 && best.state == CUBLAS_STATUS_SUCCESS &&
              best.workspaceSize <= room;
    algo_ = best.algo;
    workspace_bytes_ = best.workspaceSize;
  }
  void release() {
    if (c_ != nullptr) (void)cublasLtMatrixLayoutDestroy(c_);
    if (b_ != nullptr) (void)cublasLtMatrixLayoutDestroy(b_);
    if (a_ != nullptr) (void)cublasLtMatrixLayoutDestroy(a_);
    if (op_ != nullptr) (void)cublasLtMatmulDescDestroy(op_);
  }

  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
  cublasLtMatmulAlgo_t algo_{};
  std::size_t workspace_bytes_ = 0;
  bool usable_ = false;
};

// The workspace of split-k algorithms (their partial sums), per thread and
// device like the handles, and like them kept for the process's life (a
// thread's pass to the next thread; cudaFree would synchronise the device).
// Kept across calls because allocating it per call, stream-ordered, cost the
// host ~2.5 us, what the plan saves over cublasSgemm at 512^3 on an H200.
// Its uses are ordered by an event recorded behind each: a use on another
// stream than the last waits for it first. Streams are told apart by their
// id (cudaStreamGetId), not their handle: cudaStreamPerThread names another
// stream in each thread (with an id of its own), and a destroyed stream's
// handle may come back for a new one while the old one's work still runs.
struct SplitKWorkspace {
  void* data = nullptr;
  cudaEvent_t last_use = nullptr;
  unsigned long long last_stream = 0;  // 0: none yet, or a stream whose id the runtime did not give
};

// `stream`'s id, unique within the context's life; 0 where the runtime does not answer.
unsigned long long stream_id(cudaStream_t stream) {
  unsigned long long id = 0;
  if (cudaStreamGetId(stream, &id) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return id;
}

SplitKWorkspace* make_split_k_workspace() {
  auto w = std::make_unique<SplitKWorkspace>();
  EGEMM_CUDA_CHECK(cudaEventCreateWithFlags(&w->last_use, cudaEventDisableTiming));
  if (cudaMalloc(&w->data, split_k_workspace_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    (void)cudaEventDestroy(w->last_use);
    return nullptr;  // no room now: cublasSgemm runs (planned_sgemm says when to ask again)
  }
  return w.release();
}

// Per thread, like the cuBLAS handles: a handle per device, the plans of every
// device (declared after the handles, so destroyed before them).
struct ThreadPlans {
  ThreadHandles<SplitKWorkspace*> workspaces;
  ThreadHandles<cublasLtHandle_t> handles;
  std::unordered_map<PlanKey, std::unique_ptr<Plan>, PlanKeyHash> plans;
  cublasLtHandle_t handle(int device) {
    return handles.get(device, [] {
      cublasLtHandle_t h = nullptr;
      EGEMM_CUBLAS_CHECK(cublasLtCreate(&h));
      return h;
    });
  }
};

ThreadPlans& thread_plans() {
  thread_local ThreadPlans plans;
  return plans;
}

bool plans_enabled() { return tuning().sgemm_plans; }

}  // namespace

bool planned_sgemm(const GemmArgs& g, cudaStream_t stream) {
  if (!plans_enabled()) return false;
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  ThreadPlans& cache = thread_plans();
  const cublasLtHandle_t lt = cache.handle(device);
  const PlanKey key{device, g.trans_a, g.trans_b, g.m, g.n, g.k, g.lda, g.ldb, g.ldc,
                    alignment_of(g.a), alignment_of(g.b), alignment_of(g.c)};
  auto found = cache.plans.find(key);
  if (found == cache.plans.end()) {  // host-side set-up only: nothing enqueued, fine inside a capture
    if (cache.plans.size() >= max_sgemm_plans) cache.plans.clear();
    found = cache.plans.emplace(key, std::make_unique<Plan>(lt, key)).first;
  }
  const Plan& plan = *found->second;
  if (!plan.usable()) return false;
  if (plan.workspace_bytes() == 0) {
    plan.run(lt, g, nullptr, stream);
    return true;
  }
  // A graph would replay the product later, on a workspace other calls use
  // meanwhile: under capture, cublasSgemm (whose workspace is cuBLAS's care).
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return false;
  }
  // Where the workspace could not be had, this thread asks again only after
  // a release of EGEMM's cached memory (or on another device or context):
  // a failing 32 MiB cudaMalloc on every small call would cost more than the plan saves.
  struct Refusal {
    int device = -1;
    unsigned generation = 0, releases = 0;
  };
  thread_local Refusal refused;
  const unsigned generation = context_generation(device);
  if (refused.device == device && refused.generation == generation && refused.releases == workspace_releases())
    return false;
  SplitKWorkspace* const w = cache.workspaces.get(device, make_split_k_workspace);
  if (w == nullptr) {
    refused = {device, generation, workspace_releases()};
    return false;
  }
  const unsigned long long id = stream_id(stream);
  if (w->last_stream != 0 && (id == 0 || id != w->last_stream))
    EGEMM_CUDA_CHECK(cudaStreamWaitEvent(stream, w->last_use, 0));
  plan.run(lt, g, w->data, stream);
  w->last_stream = id == 0 ? ~0ULL : id;  // an unknown stream: the next use waits, whichever its stream
  EGEMM_CUDA_CHECK(cudaEventRecord(w->last_use, stream));
  return true;
}

std::size_t sgemm_plans_cached() { return thread_plans().plans.size(); }

}  // namespace egemm::cuda
