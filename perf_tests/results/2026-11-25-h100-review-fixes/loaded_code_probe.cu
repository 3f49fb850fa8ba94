// Experiment (session 12): what the library's loaded-code probes
// (backends/cuda/loaded_code.cu, compiled into this program) and a plain
// kernel's attributes report on the GPU, for three builds of the same source:
//   sm_90a machine code, plain sm_90 machine code, and compute_80 PTX only
//   (the driver compiles it for the GPU at load time).
// Build each with -DFLAVOR=\"...\" and the matching -gencode.
#include <cuda_runtime.h>

#include <cstdio>

#include "backends/cuda/loaded_code.hpp"

__global__ void plain_kernel() {}

int main() {
  cudaFuncAttributes a{};
  if (cudaFuncGetAttributes(&a, plain_kernel) != cudaSuccess) {
    std::printf("%-10s no code for this GPU\n", FLAVOR);
    return 1;
  }
  std::printf("%-10s plain kernel: binaryVersion %d ptxVersion %d | probes: sm90a_features %d griddepcontrol %d\n",
              FLAVOR, a.binaryVersion, a.ptxVersion, egemm::cuda::loaded_code_has_sm90a_features(),
              egemm::cuda::loaded_code_has_grid_dependency_control());
  return 0;
}
