#include "backends/cuda/cuda_gemm.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {

void gemm(PolicyId policy, const GemmArgs&, cudaStream_t) {
  throw unsupported(std::string("egemm::gemm: the CUDA kernel for ") + policy_name(policy) + " is not built yet");
}

}  // namespace egemm::cuda
