// Int8Slices on the CPU: the oracle the CUDA kernels are tested against.
// The integer sums are exact, so the device and this give the same bits.
#pragma once

#include <cstdint>
#include <vector>

#include "egemm/gemm_args.hpp"

namespace egemm::host {

// Rows of op(A) and columns of op(B) holding Inf or NaN.
struct NonfiniteLines {
  std::vector<std::uint8_t> a, b;
};

// C = alpha * op(A) op(B) + beta C by Int8Slices (numerics/int8_digits.hpp);
// k at most int8_slices_max_depth. Entries of rows or columns holding Inf or
// NaN are left alone and returned: the caller recomputes them as FP32 gemm does.
NonfiniteLines int8_slices_gemm(const GemmArgs& g);

}  // namespace egemm::host
