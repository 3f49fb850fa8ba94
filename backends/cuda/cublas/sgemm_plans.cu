// cuBLASLt plans per thread, device and call shape for NativeFP32 and the small-size hand-off.
#include "backends/cuda/cublas/sgemm_plans.hpp"

#include <cublasLt.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

#include "backends/cuda/cublas/cublas_native.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/thread_handles.hpp"
#include "backends/cuda/runtime/tuning.hpp"

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
  void run(cublasLtHandle_t lt, const GemmArgs& g, cudaStream_t stream) const {
    EGEMM_CUBLAS_CHECK(cublasLtMatmul(lt, op_, &g.alpha, g.a, a_, g.b, b_, &g.beta, g.c, c_, g.c, c_, &algo_, nullptr, 0,
                                      stream));
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
    // Ask with room for workspace, so that cuBLASLt picks as it would unconstrained.
    cublasLtMatmulPreference_t preference = nullptr;
    EGEMM_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference));
    const std::size_t room = std::size_t{64} << 20;
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
    usable_ = s == CUBLAS_STATUS_SUCCESS && found > 0 && best.state == CUBLAS_STATUS_SUCCESS && best.workspaceSize == 0;
    algo_ = best.algo;
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
  bool usable_ = false;
};

// Per thread, like the cuBLAS handles: a handle per device, the plans of every
// device (declared after the handles, so destroyed before them).
struct ThreadPlans {
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
  if (!found->second->usable()) return false;
  found->second->run(lt, g, stream);
  return true;
}

std::size_t sgemm_plans_cached() { return thread_plans().plans.size(); }

}  // namespace egemm::cuda
