// EmulatedFP32's split on its own, into buffers that outlive it: for timing
// the split alone (bench_cuda_gemm) and the fused kernel alone on split
// operands (sm90_tiles): the library's own split of both operands
// (launch_emulated_fp32_split, as backends/cuda/cuda_gemm.cu runs it), for column-major
// A (m x k) and B (k x n) without transposes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backends/cuda/sm80/tile_config.hpp"
#include "backends/cuda/split/split_operand.hpp"
#include "egemm/path_selection.hpp"

namespace egemm::perf {

class PresplitOperands {
 public:
  PresplitOperands() = default;
  PresplitOperands(const PresplitOperands&) = delete;
  PresplitOperands& operator=(const PresplitOperands&) = delete;
  ~PresplitOperands() {
    (void)cudaFree(memory_);
    (void)cudaFree(panel_marks_);
  }

  cuda::SplitOperand a, b;
  std::uint32_t* path_word = nullptr;  // the device's path choice, after split()

  // Splits A (m x k, lda = m) and B (k x n, ldb = k) on `stream`.
  void split(const float* A, const float* B, index_t m, index_t n, index_t k, cudaStream_t stream) {
    reserve(m, n, k);
    const OperandRows ra{A, m, k, 1, m}, rb{B, n, k, k, 1};
    check(cudaMemsetAsync(words_, 0, word_count_ * 4, stream), "memset split stats");
    cuda::launch_emulated_fp32_split(ra, rb, a, b, path_word, path_word + 1, any_nonfinite_, stream);
  }

 private:
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
  }
  static index_t round_up(index_t v, index_t q) { return (v + q - 1) / q * q; }

  // Room for TF32 (4-byte) pieces: the device may choose the full-range path.
  void reserve(index_t m, index_t n, index_t k) {
    if (m == m_ && n == n_ && k == k_) return;
    (void)cudaFree(memory_);
    (void)cudaFree(panel_marks_);
    m_ = m, n_ = n, k_ = k;
    const index_t depth = round_up(k, cuda::split_depth_multiple);
    const index_t rows[2] = {round_up(m, cuda::split_row_multiple), round_up(n, cuda::split_row_multiple)};
    const index_t logical[2] = {m, n};
    const std::size_t pieces_bytes = 2 * 4 * static_cast<std::size_t>((rows[0] + rows[1]) * depth);
    const std::size_t stats_words = static_cast<std::size_t>(cuda::split_stats_words(m) + cuda::split_stats_words(n));
    word_count_ = stats_words + 3;  // + any-nonfinite flag, path word, the path choice's block counter
    check(cudaMalloc(&memory_, pieces_bytes + 4 * static_cast<std::size_t>(rows[0] + rows[1]) + 4 * word_count_),
          "cudaMalloc split operands");
    auto* bytes = static_cast<unsigned char*>(memory_);
    int* exponents = reinterpret_cast<int*>(bytes + pieces_bytes);
    words_ = reinterpret_cast<std::uint32_t*>(exponents + rows[0] + rows[1]);
    std::uint32_t* w = words_;
    cuda::SplitOperand* ops[2] = {&a, &b};
    for (int i = 0; i < 2; ++i) {
      cuda::SplitOperand& op = *ops[i];
      const std::size_t piece = 4 * static_cast<std::size_t>(rows[i] * depth);
      op.piece[0] = bytes;
      op.piece[1] = bytes + piece;
      bytes += 2 * piece;
      op.rows = logical[i];
      op.depth = k;
      op.rows_pad = rows[i];
      op.depth_pad = depth;
      op.exponent = exponents;
      exponents += rows[i];
      w = cuda::place_split_stats(op, w);
    }
    any_nonfinite_ = w;
    path_word = w + 1;
    check(cudaMalloc(&panel_marks_, 4 * static_cast<std::size_t>(cuda::split_panels(a) + cuda::split_panels(b))),
          "cudaMalloc split panel marks");
    a.panel_in_tf32 = panel_marks_;
    b.panel_in_tf32 = panel_marks_ + cuda::split_panels(a);
  }

  void* memory_ = nullptr;
  std::uint32_t* panel_marks_ = nullptr;
  std::uint32_t* words_ = nullptr;
  std::uint32_t* any_nonfinite_ = nullptr;
  std::size_t word_count_ = 0;
  index_t m_ = -1, n_ = -1, k_ = -1;
};

}  // namespace egemm::perf
