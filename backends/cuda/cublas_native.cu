#include "backends/cuda/cublas_native.hpp"

#include <climits>
#include <string>
#include <unordered_map>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/relaxed_capture.hpp"
#include "backends/cuda/sgemm_plans.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {
namespace {

// One handle per (thread, device): a handle is bound to the device current at
// its creation, and sharing one between threads would race on its stream.
struct HandleCache {
  std::unordered_map<int, cublasHandle_t> handles;
  ~HandleCache() {
    for (auto& entry : handles) (void)cublasDestroy(entry.second);  // at thread exit; nothing to report to
  }
};

int checked_int(index_t v, const char* name) {
  if (v > INT_MAX) throw unsupported(std::string("egemm::gemm (CUDA, NativeFP32): ") + name + " = " + std::to_string(v) +
                                     " exceeds cuBLAS's 32-bit sizes");
  return static_cast<int>(v);
}

}  // namespace

cublasHandle_t cublas_handle() {
  thread_local HandleCache cache;
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  auto found = cache.handles.find(device);
  if (found != cache.handles.end()) return found->second;
  const RelaxedCaptureScope relaxed;  // cublasCreate allocates: refused inside a capture otherwise
  cublasHandle_t h = nullptr;
  EGEMM_CUBLAS_CHECK(cublasCreate(&h));
  // Plain FP32 math (no TF32 tensor-op shortcut), stated rather than assumed.
  const cublasStatus_t s = cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);
  if (s != CUBLAS_STATUS_SUCCESS) {
    (void)cublasDestroy(h);
    EGEMM_CUBLAS_CHECK(s);
  }
  cache.handles.emplace(device, h);
  return h;
}

void native_sgemm(const GemmArgs& g, cudaStream_t stream) {
  // cuBLAS's 32-bit sizes either way.
  const int m = checked_int(g.m, "m"), n = checked_int(g.n, "n"), k = checked_int(g.k, "k");
  const int lda = checked_int(g.lda, "lda"), ldb = checked_int(g.ldb, "ldb"), ldc = checked_int(g.ldc, "ldc");
  if (planned_sgemm(g, stream)) return;
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  // The handle's pointer mode is the default (host) and never changed, so alpha/beta are read here.
  EGEMM_CUBLAS_CHECK(cublasSgemm(h, to_cublas(g.trans_a), to_cublas(g.trans_b), m, n, k, &g.alpha, g.a, lda, g.b, ldb,
                                 &g.beta, g.c, ldc));
}

}  // namespace egemm::cuda
