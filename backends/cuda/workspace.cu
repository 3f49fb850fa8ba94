#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "backends/cuda/workspace.hpp"

namespace egemm::cuda {

cudaMemPool_t workspace_pool() {
  static std::mutex mutex;
  static std::unordered_map<int, cudaMemPool_t> pools;  // per device, for the process's life
  int device = 0;
  EGEMM_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = pools.find(device);
  if (it != pools.end()) return it->second;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool;
  EGEMM_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  std::uint64_t keep_everything = ~std::uint64_t{0};
  EGEMM_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_everything));
  return pools.emplace(device, pool).first->second;
}

void release_workspace_memory() {
  const cudaMemPool_t pool = workspace_pool();
  EGEMM_CUDA_CHECK(cudaDeviceSynchronize());  // nothing in flight may still use it
  EGEMM_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
}

}  // namespace egemm::cuda
