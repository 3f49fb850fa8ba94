// Which memory a pointer is, so the host API rejects device pointers and the
// CUDA API rejects host pointers with a message instead of a crash.
#include <string>

#include "backends/cuda/cuda_check.hpp"
#include "backends/cuda/cuda_gemm.hpp"

namespace egemm::cuda {
namespace {

enum class Kind { host, device, managed };

Kind kind_of(const void* p) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {  // no driver / no device: it cannot be device memory
    (void)cudaGetLastError();
    return Kind::host;
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice: return Kind::device;
    case cudaMemoryTypeManaged: return Kind::managed;
    default: return Kind::host;  // unregistered or pinned host memory
  }
}

void require(const GemmArgs& g, bool want_device, const char* where) {
  const struct { const char* name; const void* p; bool used; } operands[] = {
      {"A", g.a, g.k > 0 && g.alpha != 0.0f}, {"B", g.b, g.k > 0 && g.alpha != 0.0f}, {"C", g.c, true}};
  for (const auto& op : operands) {
    if (!op.used || op.p == nullptr) continue;
    const Kind k = kind_of(op.p);
    if (k == Kind::managed) continue;  // reachable from both sides
    if (want_device && k == Kind::host)
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is host memory, but a CUDA stream was given; pass device (or managed) memory");
    if (!want_device && k == Kind::device)
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is device memory, but no CUDA stream was given; pass a stream to run on the GPU");
  }
}

}  // namespace

void require_device_memory(const GemmArgs& g) { require(g, true, "egemm::gemm"); }
void require_host_memory(const GemmArgs& g) { require(g, false, "egemm::gemm"); }

bool device_supported() {
  int device = 0, count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return false;
  }
  if (cudaGetDevice(&device) != cudaSuccess) return false;
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) return false;
  return major >= 8;
}

}  // namespace egemm::cuda
