// The host backend: every policy's algorithm on the CPU. It is the oracle the
// CUDA backend is tested against, so it reproduces the device algorithm: the
// same split (bit for bit), the same piece products, FP32 accumulation in k
// order per output entry, the same per-k-step fold and epilogue.
#pragma once

#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

namespace egemm::host {

// C = alpha * op(A) * op(B) + beta * C with `policy`; args validated, non-empty, k > 0.
void gemm(PolicyId policy, const GemmArgs& args);

// C = beta * C; C is not read when beta == 0.
void scale_c(const GemmArgs& args);

// EmulatedFP64 (emulated_fp64_gemm.cpp); args validated, non-empty, k > 0.
void gemm(PolicyId policy, const GemmArgs64& args);
void scale_c(const GemmArgs64& args);

}  // namespace egemm::host
