// Routes a validated call to a backend, after the quick returns every backend
// shares (empty C, nothing to multiply).
#include "backends/host/host_gemm.hpp"
#include "egemm/errors.hpp"
#include "egemm/gemm.hpp"
#if EGEMM_HAVE_CUDA
#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/runtime/context_generation.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#endif

namespace egemm {

namespace {

// The host and CUDA forms' shared steps, float and double alike.
template <class T>
void host_call(PolicyId policy, const GemmArgsT<T>& args) {
#if EGEMM_HAVE_CUDA
  cuda::require_host_memory(args);
#endif
  if (args.empty()) return;
  if (args.only_scales_c()) return host::scale_c(args);
  host::gemm(policy, args);
}

template <class T>
void cuda_call(PolicyId policy, const GemmArgsT<T>& args, cuda_stream_t stream) {
#if EGEMM_HAVE_CUDA
  cuda::require_a_device();  // before anything that would ask the missing device about the pointers
  if (args.empty()) return;
  cuda::require_device_operands(args, stream);
  cuda::observe_device_context();  // per-device state made before a cudaDeviceReset is made again
  if (args.only_scales_c()) return cuda::scale_c(args, stream);
  cuda::gemm(policy, args, stream);
#else
  (void)policy;
  (void)args;
  (void)stream;
  throw unsupported("egemm::gemm: a CUDA stream was given, but this EGEMM was built without CUDA (EGEMM_ENABLE_CUDA=OFF)");
#endif
}

}  // namespace

void detail::gemm_host(PolicyId policy, const GemmArgs& args) { host_call(policy, args); }
void detail::gemm_host(PolicyId policy, const GemmArgs64& args) { host_call(policy, args); }
void detail::gemm_cuda(PolicyId policy, const GemmArgs& args, cuda_stream_t stream) { cuda_call(policy, args, stream); }
void detail::gemm_cuda(PolicyId policy, const GemmArgs64& args, cuda_stream_t stream) {
  cuda_call(policy, args, stream);
}

detail::EmulationRoute detail::emulated_fp64_route(index_t m, index_t n, index_t k) {
#if EGEMM_HAVE_CUDA
  if (!cuda::device_supported()) return EmulationRoute::no_device;
  return cuda::emulated_fp64_on_tensor_cores(m, n, k) ? EmulationRoute::tensor_cores : EmulationRoute::hand_off;
#else
  (void)m;
  (void)n;
  (void)k;
  return EmulationRoute::no_device;
#endif
}

bool emulated_fp64_uses_tensor_cores(index_t m, index_t n, index_t k) {
  return detail::emulated_fp64_route(m, n, k) == detail::EmulationRoute::tensor_cores;
}

bool cuda_available() {
#if EGEMM_HAVE_CUDA
  return cuda::device_supported();
#else
  return false;
#endif
}

detail::EmulationRoute detail::emulated_fp32_route(index_t m, index_t n, index_t k) {
#if EGEMM_HAVE_CUDA
  const int device = cuda::supported_current_device();
  if (device < 0) return EmulationRoute::no_device;
  return cuda::emulated_fp32_on_tensor_cores(device, m, n, k) ? EmulationRoute::tensor_cores : EmulationRoute::hand_off;
#else
  (void)m;
  (void)n;
  (void)k;
  return EmulationRoute::no_device;
#endif
}

bool emulated_fp32_uses_tensor_cores(index_t m, index_t n, index_t k) {
  return detail::emulated_fp32_route(m, n, k) == detail::EmulationRoute::tensor_cores;
}

void release_cached_device_memory() {
#if EGEMM_HAVE_CUDA
  if (cuda::device_supported()) cuda::release_workspace_memory();
#endif
}

}  // namespace egemm
