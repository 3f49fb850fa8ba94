// Which memory a pointer is, so the host API rejects device pointers and the
// CUDA API rejects pageable host pointers with a message instead of a crash
// (managed and page-locked memory reach both).
#include <string>

#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/kernel_images.hpp"
#include "backends/cuda/runtime/relaxed_capture.hpp"

namespace egemm::cuda {
namespace {

enum class Kind { host, pinned_host, device, managed };

struct Memory {
  Kind kind = Kind::host;
  int device = -1;             // the GPU device memory belongs to
  bool reachable_here = true;  // from the current device (its own memory, or a peer's with access enabled)
};

Memory memory_of(const void* p) {
  cudaPointerAttributes attr{};
  const cudaError_t e = cudaPointerGetAttributes(&attr, p);
  if (e != cudaSuccess) {  // no driver / no device: it cannot be device memory
    (void)cudaGetLastError();
    return {};
  }
  switch (attr.type) {
    case cudaMemoryTypeDevice: return {Kind::device, attr.device, attr.devicePointer != nullptr};
    case cudaMemoryTypeManaged: return {Kind::managed, attr.device, true};
    // Page-locked (cudaMallocHost, cudaHostRegister): with unified addressing
    // every GPU reaches it at the same address, over the bus, as cuBLAS does.
    case cudaMemoryTypeHost: return {Kind::pinned_host, -1, attr.devicePointer == p};
    default: return {};  // pageable host memory
  }
}

int current_device() {
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

void require(const GemmArgs& g, bool want_device, const char* where) {
  const struct { const char* name; const void* p; bool used; } operands[] = {
      {"A", g.a, g.k > 0 && g.alpha != 0.0f}, {"B", g.b, g.k > 0 && g.alpha != 0.0f}, {"C", g.c, true}};
  for (const auto& op : operands) {
    if (!op.used || op.p == nullptr) continue;
    const Memory m = memory_of(op.p);
    if (m.kind == Kind::managed) continue;  // reachable from both sides
    if (m.kind == Kind::pinned_host && (!want_device || m.reachable_here)) continue;  // so is this (slowly, from the GPU)
    if (want_device && (m.kind == Kind::host || m.kind == Kind::pinned_host))
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is host memory, but a CUDA stream was given; pass device, managed or page-locked memory");
    if (!want_device && m.kind == Kind::device)
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is device memory, but no CUDA stream was given; pass a stream to run on the GPU");
    if (want_device && !m.reachable_here) {
      const int here = current_device();
      throw invalid_argument(std::string(where) + ": " + op.name + " is memory of GPU " + std::to_string(m.device) +
                             ", which the current device (GPU " + std::to_string(here) +
                             ") cannot reach; call cudaSetDevice(" + std::to_string(m.device) +
                             ") first, or enable peer access");
    }
  }
}

// The kernels run on the current device: a stream of another one would fail
// at the first launch with an error that does not say why. The default
// streams are the current device's by definition; a stream being captured is
// left alone (asking its device would end the capture); a stream the runtime
// cannot place is left for the launch to report.
void require_stream_of_current_device(cudaStream_t stream, const char* where) {
#if CUDART_VERSION >= 12080
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return;
  // A thread's calls mostly reuse one stream: its last good answer skips the
  // runtime calls below, on the host path of every small call.
  thread_local cudaStream_t checked_stream = nullptr;
  thread_local int checked_device = -1;
  thread_local unsigned checked_generation = 0;  // a reset device's new streams may reuse an old handle
  const int here = current_device();
  const unsigned generation = current_context_generation(here);  // before the call observes its context: a reset is seen here too
  if (stream == checked_stream && here == checked_device && generation == checked_generation) return;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  if (cudaStreamIsCapturing(stream, &capture) != cudaSuccess || capture != cudaStreamCaptureStatusNone) {
    (void)cudaGetLastError();
    return;
  }
  const RelaxedCaptureScope relaxed;  // other threads' captures in global mode are not this call's business
  int stream_device = 0;
  if (cudaStreamGetDevice(stream, &stream_device) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  if (stream_device != here)
    throw invalid_argument(std::string(where) + ": the stream belongs to GPU " + std::to_string(stream_device) +
                           ", but the current device is GPU " + std::to_string(here) + "; call cudaSetDevice(" +
                           std::to_string(stream_device) + ") first");
  checked_stream = stream;
  checked_device = here;
  checked_generation = generation;
#else
  (void)stream;
  (void)where;
#endif
}

}  // namespace

void require_device_operands(const GemmArgs& g, cudaStream_t stream) {
  require_stream_of_current_device(stream, "egemm::gemm");
  require(g, true, "egemm::gemm");
}
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
  return major >= 8 && kernel_images_load_here();
}

}  // namespace egemm::cuda
