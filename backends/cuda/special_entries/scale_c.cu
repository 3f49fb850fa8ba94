// C = beta * C for calls with nothing to multiply (alpha == 0 or k == 0).
#include <algorithm>

#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"

namespace egemm::cuda {
namespace {

template <class T>
__global__ void scale_c_kernel(T* c, index_t m, index_t n, index_t ldc, T beta) {
  const index_t total = m * n;
  for (index_t t = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; t < total;
       t += static_cast<index_t>(gridDim.x) * blockDim.x) {
    T* p = c + (t % m) + (t / m) * ldc;
    *p = beta == T(0) ? T(0) : beta * *p;  // beta == 0: C is not read
  }
}

template <class T>
void scale_c_of(const GemmArgsT<T>& g, cudaStream_t stream) {
  const index_t total = g.m * g.n;
  const unsigned blocks = static_cast<unsigned>(std::min<index_t>((total + 255) / 256, 65535));
  launch_plain(scale_c_kernel<T>, dim3(blocks), dim3(256), 0, stream, g.c, g.m, g.n, g.ldc, g.beta);
}

}  // namespace

void scale_c(const GemmArgs& g, cudaStream_t stream) { scale_c_of(g, stream); }
void scale_c(const GemmArgs64& g, cudaStream_t stream) { scale_c_of(g, stream); }

}  // namespace egemm::cuda
