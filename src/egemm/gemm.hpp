// The raw-pointer API, column-major like BLAS:
//
//   C = alpha * op(A) * op(B) + beta * C,   op(A) m x k, op(B) k x n, C m x n.
//
//   egemm::gemm(egemm::EmulatedFP32{}, 'N', 'T', m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);          // host
//   egemm::gemm(egemm::EmulatedFP32{}, 'N', 'T', m, n, k, alpha, dA, lda, dB, ldb, beta, dC, ldc, stream); // CUDA
//   egemm::gemm(egemm::EmulatedFP64{}, 'N', 'T', m, n, k, alpha, dA, lda, dB, ldb, beta, dC, ldc, stream); // double
//
// The FP32 tags take float operands, EmulatedFP64 double ones; any other
// pairing does not compile (no overload matches).
// Without a stream the pointers are host memory and the host fallback runs
// before the call returns. With a cudaStream_t they are device memory and the
// work is enqueued on that stream (nullptr: the legacy default stream); the
// call returns without waiting. Arguments are checked first: a bad one throws
// egemm::invalid_argument and C is not touched. With a stream but no CUDA
// device (or a build without CUDA) the call throws egemm::unsupported. BLAS conventions hold:
// beta == 0 never reads C, alpha == 0 or k == 0 never reads A or B.
#pragma once

#include <type_traits>

#include "egemm/errors.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/policy.hpp"

struct CUstream_st;  // cudaStream_t without including the CUDA runtime

namespace egemm {

using cuda_stream_t = CUstream_st*;

namespace detail {
void gemm_host(PolicyId policy, const GemmArgs& args);
void gemm_cuda(PolicyId policy, const GemmArgs& args, cuda_stream_t stream);
void gemm_host(PolicyId policy, const GemmArgs64& args);
void gemm_cuda(PolicyId policy, const GemmArgs64& args, cuda_stream_t stream);

// Where an emulated call of m x n x k would run on the current CUDA device,
// from one query of which device that is: the cuBLAS interposer's
// take-or-pass decision, which every call it passes through pays.
enum class EmulationRoute { no_device, hand_off, tensor_cores };
EmulationRoute emulated_fp32_route(index_t m, index_t n, index_t k);
EmulationRoute emulated_fp64_route(index_t m, index_t n, index_t k);
}  // namespace detail

template <class Policy, std::enable_if_t<is_policy_for_v<Policy, float>, int> = 0>
void gemm(Policy, char trans_a, char trans_b, index_t m, index_t n, index_t k, float alpha, const float* a, index_t lda,
          const float* b, index_t ldb, float beta, float* c, index_t ldc) {
  detail::gemm_host(policy_traits<Policy>::id,
                    make_gemm_args("egemm::gemm", trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

template <class Policy, std::enable_if_t<is_policy_for_v<Policy, float>, int> = 0>
void gemm(Policy, char trans_a, char trans_b, index_t m, index_t n, index_t k, float alpha, const float* a, index_t lda,
          const float* b, index_t ldb, float beta, float* c, index_t ldc, cuda_stream_t stream) {
  detail::gemm_cuda(policy_traits<Policy>::id,
                    make_gemm_args("egemm::gemm", trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc),
                    stream);
}

template <class Policy, std::enable_if_t<is_policy_for_v<Policy, double>, int> = 0>
void gemm(Policy, char trans_a, char trans_b, index_t m, index_t n, index_t k, double alpha, const double* a,
          index_t lda, const double* b, index_t ldb, double beta, double* c, index_t ldc) {
  detail::gemm_host(policy_traits<Policy>::id,
                    make_gemm_args("egemm::gemm", trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

template <class Policy, std::enable_if_t<is_policy_for_v<Policy, double>, int> = 0>
void gemm(Policy, char trans_a, char trans_b, index_t m, index_t n, index_t k, double alpha, const double* a,
          index_t lda, const double* b, index_t ldb, double beta, double* c, index_t ldc, cuda_stream_t stream) {
  detail::gemm_cuda(policy_traits<Policy>::id,
                    make_gemm_args("egemm::gemm", trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc),
                    stream);
}

// On the current CUDA device: does EmulatedFP64 on an m x n x k problem run
// on the INT8 tensor cores (else cuBLAS DGEMM, which is faster there: small
// or thin problems, k beyond the moduli's exact int32 sums)? False without
// CUDA. EGEMM_SMALL_GEMM_FALLBACK=0 keeps it on the tensor cores at every size.
bool emulated_fp64_uses_tensor_cores(index_t m, index_t n, index_t k);

// True when this build has the CUDA backend and a GPU it can run on is visible.
bool cuda_available();

// On the current CUDA device: does EmulatedFP32 on an m x n x k problem run
// on the tensor cores? Where the emulation cannot win, it runs cuBLAS SGEMM
// instead (faster there, FP32 either way): a C of too few tiles to keep the
// GPU's SMs busy for its depth (on an H200: 1024^3 runs the emulation, 1.5x
// SGEMM's speed; 1024 x 1024 x 512 and 768^3 do not), or so thin (or shallow) that the split's memory
// traffic (or each tile's fixed cost) outweighs the tensor cores' gain
// (egemm/model/crossover.hpp; on an H100's Hopper kernel, m n / (m + n)
// below ~170 or k below ~180). Environment EGEMM_SMALL_GEMM_FALLBACK=0 turns
// the hand-off off. False without CUDA.
bool emulated_fp32_uses_tensor_cores(index_t m, index_t n, index_t k);

// The CUDA backend keeps its scratch memory (the split operands, per element
// of A and B: 8 bytes for EmulatedFP32, FullRangeTF32x3 and NormwiseFP32
// (whose digits take 3 of them), 4 for RoundSplit4 and TruncateSplit4, 3 for
// Int8Slices, 2 for Half; rows padded to 128, k to 64 (128 for the digits)) in a pool that
// does not shrink, so repeated calls do not re-map it. This hands the unused part back to the driver (a
// thread's 32 MiB split-k workspace for the SGEMM hand-off is kept, as cuBLAS keeps its handles'). It
// synchronises the current device (cudaDeviceSynchronize: it waits for all work there, every stream's), so it
// must not be called while a stream of that device is being captured into a CUDA graph (under the default
// capture mode the synchronisation is an error that invalidates the capture). A no-op without CUDA or without a device.
// (docs/design.md, "Stream semantics", lists every call that synchronises.)
void release_cached_device_memory();

}  // namespace egemm
