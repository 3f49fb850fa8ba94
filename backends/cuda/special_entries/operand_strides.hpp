// Where op(A)(i, p) and op(B)(p, j) live, as strides the per-entry recompute
// kernels (special values, wide rows, outliers) hoist out of their k loops;
// plain C++ too, for the host tests of the outlier pass.
#pragma once

#include "egemm/config.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

struct OperandStrides {
  index_t a_row, a_depth;  // op(A)(i, p) = a[i * a_row + p * a_depth]
  index_t b_col, b_depth;  // op(B)(p, j) = b[j * b_col + p * b_depth]
};

EGEMM_INLINE OperandStrides operand_strides(const GemmArgs& g) {
  return {g.trans_a == Op::none ? 1 : g.lda, g.trans_a == Op::none ? g.lda : 1, g.trans_b == Op::none ? g.ldb : 1,
          g.trans_b == Op::none ? 1 : g.ldb};
}

}  // namespace egemm::cuda
