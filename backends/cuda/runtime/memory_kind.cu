// Which memory a pointer is, so the host API rejects device pointers and the
// CUDA API rejects pageable host pointers with a message instead of a crash
// (managed and page-locked memory reach both).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/driver_entry.hpp"
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

// What this thread learnt: allocations that were device memory of `device`
// in its context's generation `generation`. A later call re-verifies a hit
// with one driver query instead of cudaPointerGetAttributes' several: the
// allocation's buffer id, unique within the process, so a range freed and
// allocated again (as any kind of memory, on any device) is never mistaken
// for the one remembered. Only the current device's memory is remembered: it
// is reachable whatever peer access says, and the other kinds keep the full
// query, which the calls that pass them pay anyway (host memory with a stream
// is an error; managed and page-locked operands are rare on this path).
struct KnownAllocation {
  std::uintptr_t begin = 0, end = 0;  // empty: a free slot
  unsigned long long buffer_id = 0;
  int device = -1;
  unsigned generation = 0;
};
constexpr int known_allocations = 32;  // A, B and C of ten problems in turn
thread_local KnownAllocation known[known_allocations];
thread_local unsigned next_known = 0;

unsigned long long buffer_id_of(const void* p) {
  static const auto get = driver_entry<PFN_cuPointerGetAttribute_v4000>("cuPointerGetAttribute");
  unsigned long long id = 0;
  return get(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, reinterpret_cast<CUdeviceptr>(p)) == CUDA_SUCCESS ? id : 0;
}

// Whether p lies in an allocation this thread found to be device memory of
// `device` in `generation`, and that allocation is still the one there.
bool known_device_memory(const void* p, int device, unsigned generation) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  for (KnownAllocation& k : known) {
    if (at < k.begin || at >= k.end) continue;
    if (k.device == device && k.generation == generation && buffer_id_of(p) == k.buffer_id) return true;
    k = KnownAllocation{};  // freed, another device's, or of a context that a reset destroyed: the full query decides
    return false;
  }
  return false;
}

void remember_device_memory(const void* p, int device, unsigned generation) {
  static const auto get = driver_entry<PFN_cuPointerGetAttributes_v7000>("cuPointerGetAttributes");
  CUpointer_attribute what[] = {CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                CU_POINTER_ATTRIBUTE_BUFFER_ID};
  CUdeviceptr start = 0;
  std::size_t size = 0;
  unsigned long long id = 0;
  void* values[] = {&start, &size, &id};
  if (get(3, what, values, reinterpret_cast<CUdeviceptr>(p)) != CUDA_SUCCESS || size == 0 || id == 0) return;
  KnownAllocation* slot = &known[next_known++ % known_allocations];  // in turn, unless one is free
  for (KnownAllocation& k : known)
    if (k.end == 0) {
      slot = &k;
      break;
    }
  *slot = {static_cast<std::uintptr_t>(start), static_cast<std::uintptr_t>(start) + size, id, device, generation};
}

struct DeviceCount {
  cudaError_t answer = cudaSuccess;
  int count = 0;
};

// cudaGetDeviceCount's answer, asked once: the visible devices are fixed for the process's life.
const DeviceCount& device_count() {
  static const DeviceCount c = [] {
    DeviceCount d;
    d.answer = cudaGetDeviceCount(&d.count);
    if (d.answer != cudaSuccess) {
      (void)cudaGetLastError();
      d.count = 0;
    }
    return d;
  }();
  return c;
}

// `here` and `generation`: the current device and its context's generation
// (only the CUDA path, want_device, reads them).
template <class T>
void require(const GemmArgsT<T>& g, bool want_device, const char* where, int here = -1, unsigned generation = 0) {
  const struct { const char* name; const void* p; bool used; } operands[] = {
      {"A", g.a, g.k > 0 && g.alpha != T(0)}, {"B", g.b, g.k > 0 && g.alpha != T(0)}, {"C", g.c, true}};
  for (const auto& op : operands) {
    if (!op.used || op.p == nullptr) continue;
    if (want_device && known_device_memory(op.p, here, generation)) continue;
    const Memory m = memory_of(op.p);
    if (m.kind == Kind::managed) continue;  // reachable from both sides
    if (m.kind == Kind::pinned_host && (!want_device || m.reachable_here)) continue;  // so is this (slowly, from the GPU)
    if (want_device && (m.kind == Kind::host || m.kind == Kind::pinned_host))
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is host memory, but a CUDA stream was given; pass device, managed or page-locked memory");
    if (!want_device && m.kind == Kind::device)
      throw invalid_argument(std::string(where) + ": " + op.name +
                             " is device memory, but no CUDA stream was given; pass a stream to run on the GPU");
    if (want_device && !m.reachable_here)
      throw invalid_argument(std::string(where) + ": " + op.name + " is memory of GPU " + std::to_string(m.device) +
                             ", which the current device (GPU " + std::to_string(here) +
                             ") cannot reach; call cudaSetDevice(" + std::to_string(m.device) +
                             ") first, or enable peer access");
    if (want_device && m.kind == Kind::device && m.device == here) remember_device_memory(op.p, here, generation);
  }
}

// The kernels run on the current device: a stream of another one would fail
// at the first launch with an error that does not say why. The default
// streams are the current device's by definition; a stream being captured is
// left alone (asking its device would end the capture); a stream the runtime
// cannot place is left for the launch to report.
void require_stream_of_current_device(cudaStream_t stream, const char* where, int here, unsigned generation) {
#if CUDART_VERSION >= 12080
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) return;
  // A thread's calls mostly reuse one stream: its last good answer skips the
  // runtime calls below, on the host path of every small call.
  thread_local cudaStream_t checked_stream = nullptr;
  thread_local int checked_device = -1;
  thread_local unsigned checked_generation = 0;  // a reset device's new streams may reuse an old handle
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
  (void)here;
  (void)generation;
#endif
}

}  // namespace

void require_a_device() {
  const DeviceCount& c = device_count();
  if (c.count > 0) return;
  throw unsupported(std::string("egemm::gemm: a CUDA stream was given, but there is no CUDA device: cudaGetDeviceCount ") +
                    (c.answer == cudaSuccess ? std::string("found 0 devices")
                                             : std::string("answered ") + cudaGetErrorName(c.answer) + " (" +
                                                   cudaGetErrorString(c.answer) + ")"));
}

// A thread whose first CUDA call is this one has no context current yet, and cudaPointerGetAttributes
// then gives the current device's own memory no device address: it would read as memory this device
// cannot reach (CudaPointerChecks.AnotherThreadLearnsAndRefusesOnItsOwn). cudaSetDevice makes the
// device's primary context current to the thread; once per thread, device and context generation.
namespace {
void bind_current_device(int here, unsigned generation) {
  thread_local int bound_device = -1;
  thread_local unsigned bound_generation = 0;
  if (bound_device == here && bound_generation == generation) return;
  const RelaxedCaptureScope relaxed;  // one-time set-up, as the handles' and the pool's
  EGEMM_CUDA_CHECK(cudaSetDevice(here));
  bound_device = here;
  bound_generation = generation;
}
}  // namespace

namespace {
template <class T>
void require_device_operands_of(const GemmArgsT<T>& g, cudaStream_t stream) {
  const int here = current_device();
  const unsigned generation = current_context_generation(here);  // before the call observes its context: a reset is seen here too
  bind_current_device(here, generation);
  require_stream_of_current_device(stream, "egemm::gemm", here, generation);
  require(g, true, "egemm::gemm", here, generation);
}
}  // namespace

void require_device_operands(const GemmArgs& g, cudaStream_t stream) { require_device_operands_of(g, stream); }
void require_device_operands(const GemmArgs64& g, cudaStream_t stream) { require_device_operands_of(g, stream); }

// Without a device no pointer can be device memory: nothing to ask (each
// query would fail, on every host call of such a machine).
void require_host_memory(const GemmArgs& g) {
  if (device_count().count > 0) require(g, false, "egemm::gemm");
}
void require_host_memory(const GemmArgs64& g) {
  if (device_count().count > 0) require(g, false, "egemm::gemm");
}

int supported_current_device() {
  if (device_count().count == 0) return -1;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return -1;
  return device_supported(device) ? device : -1;
}

bool device_supported() { return supported_current_device() >= 0; }

bool device_supported(int device) {
  // A device's answer never changes (its architecture and this binary's code
  // for it; a reset leaves both): kept per thread, so that the query a small
  // call's host path makes twice costs one cudaGetDevice.
  constexpr int remembered = 64;
  thread_local signed char known[remembered] = {};  // 0: not asked yet, 1: supported, -1: not
  if (device < remembered && known[device] != 0) return known[device] > 0;
  int major = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) return false;
  const bool supported = major >= 8 && kernel_images_load_here();
  if (device < remembered) known[device] = supported ? 1 : -1;
  return supported;
}

}  // namespace egemm::cuda
