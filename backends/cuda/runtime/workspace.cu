// EGEMM's stream-ordered memory pool and a call's one scratch allocation.
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {

cudaMemPool_t workspace_pool() {
  static PerDevice<cudaMemPool_t, Lifetime::process> pools;  // a cudaDeviceReset leaves it, and its memory, alive
  return pools.get([](int device) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool;
    EGEMM_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
    std::uint64_t keep_everything = ~std::uint64_t{0};
    EGEMM_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
    return pool;
  });
}

StreamWorkspace::StreamWorkspace(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
  if (!try_allocate(bytes)) {
    std::size_t free = 0, total = 0;
    (void)cudaMemGetInfo(&free, &total);
    throw device_error("egemm::gemm (CUDA): out of device memory for " + std::to_string(bytes >> 20) +
                       " MiB of scratch (the split operands and partial sums; " + std::to_string(free >> 20) + " MiB free of " +
                       std::to_string(total >> 20) +
                       "); egemm::release_cached_device_memory() returns what EGEMM's pool holds unused, and "
                       "NativeFP32 needs no scratch");
  }
}

bool StreamWorkspace::try_allocate(std::size_t bytes) {
  if (base_ != nullptr) throw std::logic_error("egemm::gemm (CUDA): internal error: a workspace allocated twice");
  if (bytes == 0) return true;
  const std::size_t limit = tuning().scratch_limit;
  if (limit != 0 && bytes > limit) return false;
  const cudaError_t e = cudaMallocFromPoolAsync(&base_, bytes, workspace_pool(), stream_);
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // not sticky: a smaller size may fit
    base_ = nullptr;
    return false;
  }
  EGEMM_CUDA_CHECK(e);
  return true;
}

void WorkspaceCarver::throw_overrun() const {
  throw std::logic_error("egemm::gemm (CUDA): internal error: the launches took " + std::to_string(offset_) +
                         " bytes of scratch where their measuring pass counted " + std::to_string(capacity_));
}

namespace {
std::atomic<unsigned> releases{0};
}  // namespace

void release_workspace_memory() {
  const cudaMemPool_t pool = workspace_pool();
  EGEMM_CUDA_CHECK(cudaDeviceSynchronize());  // nothing in flight may still use it
  EGEMM_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  releases.fetch_add(1, std::memory_order_relaxed);
}

unsigned workspace_releases() { return releases.load(std::memory_order_relaxed); }

}  // namespace egemm::cuda
