// A CUDA driver function, from the driver the runtime already loaded (so
// libegemm needs no libcuda link), in its CUDA 12.0 form.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "backends/cuda/runtime/cuda_check.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {

// Fn is the PFN_<name>_v<version> type of cudaTypedefs.h.
template <class Fn>
Fn driver_entry(const char* name) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  EGEMM_CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || fn == nullptr)
    throw device_error(std::string("egemm::gemm (CUDA): the driver has no ") + name);
  return reinterpret_cast<Fn>(fn);
}

}  // namespace egemm::cuda
