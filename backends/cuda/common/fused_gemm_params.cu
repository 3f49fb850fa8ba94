// The fused kernels' parameters from the split operands and the call.
#include <string>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "egemm/errors.hpp"

namespace egemm::cuda {

FusedGemmParams fused_gemm_params(const SplitOperand& a, const SplitOperand& b, const GemmArgs& g,
                                  const std::uint32_t* path_word, EmulationPath path, index_t bm, index_t bn) {
  FusedGemmParams p{};
  for (int piece = 0; piece < max_pieces; ++piece) {
    p.a[piece] = a.piece[piece];
    p.b[piece] = b.piece[piece];
  }
  p.k_pad = a.depth_pad;
  p.a_exponent = a.exponent;
  p.b_exponent = b.exponent;
  p.a_nonfinite = a.nonfinite;
  p.b_nonfinite = b.nonfinite;
  p.path_word = path_word;
  p.path = path;
  p.m = g.m;
  p.n = g.n;
  p.alpha = g.alpha;
  p.beta = g.beta;
  p.c = g.c;
  p.ldc = g.ldc;
  const index_t tiles_m = (a.rows_pad + bm - 1) / bm, tiles_n = (b.rows_pad + bn - 1) / bn;
  if (tiles_m * tiles_n > 0x7fffffff || a.rows > split_max_rows || b.rows > split_max_rows)
    throw unsupported("egemm::gemm (CUDA): m = " + std::to_string(g.m) + ", n = " + std::to_string(g.n) +
                      " need more blocks than one grid holds");
  p.tiles_m = static_cast<int>(tiles_m);
  p.tiles_n = static_cast<int>(tiles_n);
  p.raster_group = 8;
  return p;
}

}  // namespace egemm::cuda
