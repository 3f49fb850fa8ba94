#include <cstdint>

#include "backends/cuda/per_device.hpp"
#include "backends/cuda/workspace.hpp"

namespace egemm::cuda {

cudaMemPool_t workspace_pool() {
  static PerDevice<cudaMemPool_t> pools;  // for the process's life
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

void release_workspace_memory() {
  const cudaMemPool_t pool = workspace_pool();
  EGEMM_CUDA_CHECK(cudaDeviceSynchronize());  // nothing in flight may still use it
  EGEMM_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
}

}  // namespace egemm::cuda
