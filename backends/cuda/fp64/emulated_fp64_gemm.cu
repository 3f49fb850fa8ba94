// EmulatedFP64 on the GPU (Ozaki scheme II, numerics/crt_moduli.hpp): per
// operand a split kernel (row statistics, scale, flags, the residues of all
// moduli in one pass), one strided-batched cuBLAS INT8 product (IMMA, int32
// sums) over the moduli per panel of C's columns, then one kernel that reads
// each entry's int32 products once, reconstructs it exactly, unscales it and
// applies alpha/beta; entries of rows or columns with Inf/NaN or too wide a
// spread (listed by the split, on the device) are computed with float64
// fused multiply-adds as DGEMM does. Small problems run cuBLAS DGEMM. All on
// the caller's stream, no host read of device data (except the debug log's
// counts, when EGEMM_LOG=debug and the stream is not being captured).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>

#include "backends/cuda/cublas/cublas_native.hpp"
#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/crt_moduli.hpp"

namespace egemm::cuda {
namespace {

namespace crt = numerics::crt;

constexpr index_t depth_multiple = 16;  // IMMA: leading dimensions of the int8 operands, multiples of 16 bytes
constexpr int split_threads = 256;      // a block per row, 4 values a thread per step
constexpr std::size_t products_cap = std::size_t(4) << 30;  // the int32 products of one panel of C's columns

index_t round_up(index_t v, index_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// One operand (op(A), or op(B)^T) as rows of depth k, split.
struct Fp64Operand {
  index_t rows = 0, depth = 0, depth_pad = 0;
  signed char* residues = nullptr;  // [modulus][rows][depth_pad], k-contiguous (IMMA's "T" layout)
  int* scale = nullptr;             // s: X = RN(x 2^s)
  int* exponent = nullptr;          // E (crt::zero_row_exponent: a zero row)
  unsigned char* float64 = nullptr; // 1: Inf/NaN in the row, 2: too wide; its entries are float64 sums
  index_t* list = nullptr;          // the flagged rows, list_count of them
  unsigned* counts = nullptr;       // [0]: flagged rows, [1]: of them with Inf/NaN
  double* transposed = nullptr;     // the rows k-contiguous where the operand stores them strided
};

// --- transpose: rows whose values are strided become k-contiguous ----------------------

// out[r * depth + p] = x(r, p) for x(r, p) = base[r + p * ld] (rows contiguous).
__global__ void transpose_kernel(const double* __restrict__ base, index_t ld, index_t rows, index_t depth,
                                 double* __restrict__ out) {
  __shared__ double tile[32][33];
  const index_t r0 = static_cast<index_t>(blockIdx.x) * 32, p0 = static_cast<index_t>(blockIdx.y) * 32;
  for (int dy = threadIdx.y; dy < 32; dy += blockDim.y) {
    const index_t r = r0 + threadIdx.x, p = p0 + dy;
    if (r < rows && p < depth) tile[dy][threadIdx.x] = base[r + p * ld];
  }
  __syncthreads();
  for (int dy = threadIdx.y; dy < 32; dy += blockDim.y) {
    const index_t r = r0 + dy, p = p0 + threadIdx.x;
    if (r < rows && p < depth) out[r * depth + p] = tile[threadIdx.x][dy];
  }
}

// --- the split: statistics, scale, flags and residues of one row per block --------------

template <class T, class Op>
__device__ T block_reduce(T v, Op op, T* shared) {
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();  // `shared` may still be read from a previous reduction
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = shared[0];
  for (int w = 1; w < split_threads / 32; ++w) v = op(v, shared[w]);
  return v;
}

template <int L>
__device__ __forceinline__ void write_residues(signed char* out, index_t plane, int moduli, const long long X[4]) {
  if (L >= moduli) return;
  char4 r;
  r.x = crt::residue<L>(X[0]);
  r.y = crt::residue<L>(X[1]);
  r.z = crt::residue<L>(X[2]);
  r.w = crt::residue<L>(X[3]);
  *reinterpret_cast<char4*>(out + L * plane) = r;
}

template <int... L>
__device__ __forceinline__ void write_all_residues(signed char* out, index_t plane, int moduli, const long long X[4],
                                                   std::integer_sequence<int, L...>) {
  (write_residues<L>(out, plane, moduli, X), ...);
}

// Row r of x (values at row + p, p < depth): max, then the fixed-point sums,
// then the residues. The row is read three times; the second and third
// reads mostly hit L2.
__global__ void __launch_bounds__(split_threads) split_kernel(const double* __restrict__ base, index_t row_stride,
                                                              Fp64Operand op, int moduli, int beta, int spread_log2) {
  __shared__ unsigned long long shared[split_threads / 32];
  const index_t r = blockIdx.x;
  const double* row = base + r * row_stride;
  const index_t k = op.depth;

  double largest = 0.0;
  unsigned nonfinite = 0;
  for (index_t p = threadIdx.x; p < k; p += split_threads) {
    const double v = row[p];
    if (isfinite(v)) largest = fmax(largest, fabs(v));
    else nonfinite = 1;
  }
  // |x| >= 0 orders as its bits: the maximum of the bits is the bits of the maximum.
  const auto largest_bits = block_reduce<unsigned long long>(
      static_cast<unsigned long long>(__double_as_longlong(largest)),
      [](unsigned long long a, unsigned long long b) { return a > b ? a : b; }, shared);
  nonfinite = static_cast<unsigned>(
      block_reduce<unsigned long long>(nonfinite, [](unsigned long long a, unsigned long long b) { return a | b; }, shared));
  largest = __longlong_as_double(static_cast<long long>(largest_bits));

  crt::RowStats s{crt::zero_row_exponent, 0, 0, nonfinite != 0};
  if (largest > 0.0) {
    s.exponent = crt::value_exponent(largest);
    uint64_t squares = 0, magnitudes = 0;
    for (index_t p = threadIdx.x; p < k; p += split_threads) {
      const double v = row[p];
      if (isfinite(v)) crt::add_to_sums(v, s.exponent, squares, magnitudes);
    }
    const auto add = [](unsigned long long a, unsigned long long b) { return a + b; };
    s.squares = block_reduce<unsigned long long>(squares, add, shared);
    s.magnitudes = block_reduce<unsigned long long>(magnitudes, add, shared);
  }
  const int scale = crt::row_scale(s, k, beta);
  const unsigned char flag = s.nonfinite ? 1 : (crt::row_too_wide(s, k, spread_log2) ? 2 : 0);
  if (threadIdx.x == 0) {
    op.scale[r] = scale;
    op.exponent[r] = s.exponent;
    op.float64[r] = flag;
    if (flag != 0) {
      const unsigned at = atomicAdd(&op.counts[0], 1u);
      op.list[at] = r;
      if (flag == 1) atomicAdd(&op.counts[1], 1u);
    }
  }
  if (flag != 0) return;  // its entries are float64 sums: its residues are never read

  const index_t plane = op.rows * op.depth_pad;
  signed char* out = op.residues + r * op.depth_pad;
  for (index_t p = 4 * static_cast<index_t>(threadIdx.x); p < op.depth_pad; p += 4 * split_threads) {
    long long X[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) X[q] = p + q < k ? crt::scaled_integer(row[p + q], scale) : 0;
    write_all_residues(out + p, plane, moduli, X, std::make_integer_sequence<int, crt::max_moduli>{});
  }
}

// --- the entries: reconstruction and epilogue --------------------------------------------

struct EntryArgs {
  const int* products;  // [modulus][column][ldp] int32, columns j0.. of C
  index_t ldp, plane;   // plane = ldp * panel columns
  index_t m, n_panel, j0, k;
  Fp64Operand a, b;
  double alpha, beta;
  double* c;
  index_t ldc;
  // The operands as given, for entries whose products may overflow (float64 sums inline).
  const double* a_base;
  index_t a_row, a_depth;
  const double* b_base;
  index_t b_col, b_depth;
};

__device__ double float64_sum(const double* a, index_t a_step, const double* b, index_t b_step, index_t k) {
  double s = 0.0;
  for (index_t p = 0; p < k; ++p) s = __fma_rn(a[p * a_step], b[p * b_step], s);
  return s;
}

template <int... L>
__device__ __forceinline__ double reconstruct_entry(const int* p, index_t plane, const crt::Constants& c,
                                                    std::integer_sequence<int, L...>) {
  crt::Accumulator acc;
  ((L < c.moduli ? crt::accumulate<L>(acc, __ldcs(p + L * plane), c) : void()), ...);
  return crt::reconstruct(acc, c);
}

__global__ void entries_kernel(EntryArgs e, const crt::Constants constants) {
  const index_t i = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t jl = blockIdx.y;
  if (i >= e.m) return;
  const index_t j = e.j0 + jl;
  if (e.a.float64[i] != 0 || e.b.float64[j] != 0) return;  // the float64 pass's
  double* c = e.c + i + j * e.ldc;
  const int ea = e.a.exponent[i], eb = e.b.exponent[j];
  if (crt::products_may_overflow(ea, eb, e.k)) {
    const double s = float64_sum(e.a_base + i * e.a_row, e.a_depth, e.b_base + j * e.b_col, e.b_depth, e.k);
    *c = crt::alpha_beta(s, e.alpha, e.beta, c);
    return;
  }
  const double v = reconstruct_entry(e.products + i + jl * e.ldp, e.plane, constants,
                                     std::make_integer_sequence<int, crt::max_moduli>{});
  *c = crt::alpha_beta(crt::unscale(v, -(e.a.scale[i] + e.b.scale[j])), e.alpha, e.beta, c);
}

// Entries of the flagged rows of op(A) (Rows) or columns of op(B), a thread
// per entry, grid-stride over (listed line, span of blockDim.x entries across).
// Where a flagged row meets a flagged column the row pass writes the entry.
template <bool Rows>
__global__ void float64_lines_kernel(EntryArgs e) {
  const Fp64Operand& listed = Rows ? e.a : e.b;
  const index_t n = e.n_panel;  // the whole of C's columns here (j0 = 0)
  const index_t across = Rows ? n : e.m;
  const index_t spans = (across + blockDim.x - 1) / blockDim.x, items = spans * listed.counts[0];
  for (index_t item = blockIdx.x; item < items; item += gridDim.x) {
    const index_t line = listed.list[item / spans], other = item % spans * blockDim.x + threadIdx.x;
    if (other >= across) continue;
    const index_t i = Rows ? line : other, j = Rows ? other : line;
    if (!Rows && e.a.float64[i] != 0) continue;
    double* c = e.c + i + j * e.ldc;
    const double s = float64_sum(e.a_base + i * e.a_row, e.a_depth, e.b_base + j * e.b_col, e.b_depth, e.k);
    *c = crt::alpha_beta(s, e.alpha, e.beta, c);
  }
}

// --- the call --------------------------------------------------------------------------

bool fits_int(const GemmArgs64& g) {
  for (index_t v : {g.m, g.n, g.k, g.lda, g.ldb, g.ldc})
    if (v > INT_MAX) return false;
  return true;
}

void native_dgemm(const GemmArgs64& g, cudaStream_t stream) {
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  const cublasOperation_t ta = to_cublas(g.trans_a), tb = to_cublas(g.trans_b);
  if (fits_int(g)) {
    EGEMM_CUBLAS_CHECK(cublasDgemm(h, ta, tb, static_cast<int>(g.m), static_cast<int>(g.n), static_cast<int>(g.k),
                                   &g.alpha, g.a, static_cast<int>(g.lda), g.b, static_cast<int>(g.ldb), &g.beta, g.c,
                                   static_cast<int>(g.ldc)));
  } else {
    EGEMM_CUBLAS_CHECK(cublasDgemm_64(h, ta, tb, g.m, g.n, g.k, &g.alpha, g.a, g.lda, g.b, g.ldb, &g.beta, g.c, g.ldc));
  }
}

// Element (r, p) of rows x at base[r * row + p * depth].
struct Strides {
  index_t row, depth;
};
Strides strides_of(const OperandRows64& x) { return {x.row_stride, x.depth_stride}; }

// The call's pieces in its workspace (a measuring carver only counts them).
struct Plan {
  int moduli = 0;
  index_t ldp = 0, panel = 0;  // products' leading dimension, columns of C per panel
  Fp64Operand a, b;
  int* products = nullptr;
  unsigned* counts = nullptr;  // a's two counts, then b's
};

Plan carve(const GemmArgs64& g, int moduli, WorkspaceCarver& w) {
  Plan p;
  p.moduli = moduli;
  p.ldp = round_up(g.m, 16);
  const std::size_t column_bytes = static_cast<std::size_t>(moduli) * static_cast<std::size_t>(p.ldp) * sizeof(int);
  p.panel = std::max<index_t>(64, static_cast<index_t>(products_cap / column_bytes) / 64 * 64);
  p.panel = std::min<index_t>(p.panel, g.n);
  p.panel = std::min<index_t>(p.panel, 65535);  // gridDim.y of the entries kernel
  p.counts = w.take<unsigned>(4);
  const auto one = [&](Fp64Operand& op, const OperandRows64& x, unsigned* counts) {
    op.rows = x.rows;
    op.depth = g.k;
    op.depth_pad = round_up(g.k, depth_multiple);
    op.residues = w.take<signed char>(static_cast<std::size_t>(moduli * op.rows * op.depth_pad));
    op.scale = w.take<int>(static_cast<std::size_t>(op.rows));
    op.exponent = w.take<int>(static_cast<std::size_t>(op.rows));
    op.float64 = w.take<unsigned char>(static_cast<std::size_t>(op.rows));
    op.list = w.take<index_t>(static_cast<std::size_t>(op.rows));
    op.counts = counts;
    if (x.depth_stride != 1) op.transposed = w.take<double>(static_cast<std::size_t>(op.rows * op.depth));
  };
  one(p.a, g.a_rows(), p.counts);
  one(p.b, g.b_cols(), w.measures_only() ? nullptr : p.counts + 2);
  p.products = w.take<int>(static_cast<std::size_t>(moduli) * static_cast<std::size_t>(p.ldp * p.panel));
  return p;
}

void launch_split(const OperandRows64& x, Fp64Operand& op, int moduli, int beta, cudaStream_t stream) {
  const double* base = x.base;
  index_t row_stride = x.row_stride;
  if (x.depth_stride != 1) {  // rows strided: make them k-contiguous first
    const dim3 grid(static_cast<unsigned>((x.rows + 31) / 32), static_cast<unsigned>((x.depth + 31) / 32));
    launch_plain(transpose_kernel, grid, dim3(32, 8), 0, stream, x.base, x.depth_stride, x.rows, x.depth,
                 op.transposed);
    base = op.transposed;
    row_stride = x.depth;
  }
  launch_plain(split_kernel, dim3(static_cast<unsigned>(x.rows)), dim3(split_threads), 0, stream, base, row_stride, op,
               moduli, beta, crt::spread_log2_for(moduli));
}

EntryArgs entry_args(const GemmArgs64& g, const Plan& p) {
  const Strides sa = strides_of(g.a_rows()), sb = strides_of(g.b_cols());
  return EntryArgs{p.products, p.ldp, 0, g.m, 0, 0, g.k, p.a, p.b, g.alpha, g.beta, g.c, g.ldc,
                   g.a, sa.row, sa.depth, g.b, sb.row, sb.depth};
}

// The whole sequence on a carved plan (nothing enqueued while measuring).
void enqueue(const GemmArgs64& g, const Plan& plan_in, const crt::Constants& constants, cudaStream_t stream) {
  Plan plan = plan_in;
  EGEMM_CUDA_CHECK(cudaMemsetAsync(plan.counts, 0, 4 * sizeof(unsigned), stream));
  launch_split(g.a_rows(), plan.a, plan.moduli, constants.beta, stream);
  launch_split(g.b_cols(), plan.b, plan.moduli, constants.beta, stream);

  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  const int one = 1, zero = 0;
  const index_t kp = plan.a.depth_pad;
  for (index_t j0 = 0; j0 < g.n; j0 += plan.panel) {
    const index_t cols = std::min(plan.panel, g.n - j0);
    // P_l = A_l^T B_l for every modulus l: int8 in, exact int32 sums out.
    EGEMM_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
        h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(g.m), static_cast<int>(cols), static_cast<int>(kp), &one,
        plan.a.residues, CUDA_R_8I, static_cast<int>(kp), static_cast<long long>(g.m * kp),
        plan.b.residues + j0 * kp, CUDA_R_8I, static_cast<int>(kp), static_cast<long long>(g.n * kp), &zero,
        plan.products, CUDA_R_32I, static_cast<int>(plan.ldp), static_cast<long long>(plan.ldp * cols), plan.moduli,
        CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    EntryArgs e = entry_args(g, plan);
    e.plane = plan.ldp * cols;
    e.n_panel = cols;
    e.j0 = j0;
    launch_plain(entries_kernel, dim3(static_cast<unsigned>((g.m + 127) / 128), static_cast<unsigned>(cols)), dim3(128),
                 0, stream, e, constants);
  }
  EntryArgs e = entry_args(g, plan);
  e.n_panel = g.n;
  launch_plain(float64_lines_kernel<true>, dim3(1024), dim3(128), 0, stream, e);
  launch_plain(float64_lines_kernel<false>, dim3(1024), dim3(128), 0, stream, e);
}

bool can_report(cudaStream_t stream) {
  if (!debug_log_enabled()) return false;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone;
}

// The smallest problems the moduli pay on (H200: the split and the int32
// products' traffic against DGEMM's time).
constexpr index_t min_extent = 1024;

}  // namespace

bool emulated_fp64_on_tensor_cores(index_t m, index_t n, index_t k) {
  if (k > crt::max_depth) return false;
  if (!small_gemm_fallback()) return true;
  return std::min({m, n, k}) >= min_extent;
}

void gemm(PolicyId policy, const GemmArgs64& g, cudaStream_t stream) {
  if (policy != PolicyId::emulated_fp64)
    throw unsupported(std::string("egemm::gemm (CUDA): no double-precision algorithm for policy ") + policy_name(policy));
  const CallTuning call_tuning;
  if (!emulated_fp64_on_tensor_cores(g.m, g.n, g.k)) {
    log_debug([&] {
      return "cuda EmulatedFP64 " + describe(g) +
             (g.k > crt::max_depth ? " -> native_fp64 (k beyond the moduli's exact int32 sums)"
                                   : " -> native_fp64 (the emulation cannot win here)");
    });
    return native_dgemm(g, stream);
  }
  const int moduli = crt::moduli_for_calls();
  const crt::Constants constants = crt::make_constants(moduli);
  WorkspaceCarver sizer;
  (void)carve(g, moduli, sizer);
  StreamWorkspace workspace(stream);
  if (!workspace.try_allocate(sizer.size())) {
    log_debug([&] {
      return "cuda EmulatedFP64 " + describe(g) + " -> native_fp64 (" + std::to_string(sizer.size() >> 20) +
             " MiB of scratch not available)";
    });
    return native_dgemm(g, stream);
  }
  WorkspaceCarver scratch(workspace.data(), sizer.size());
  const Plan plan = carve(g, moduli, scratch);
  enqueue(g, plan, constants, stream);
  if (can_report(stream)) {
    unsigned counts[4] = {0, 0, 0, 0};
    EGEMM_CUDA_CHECK(cudaMemcpyAsync(counts, plan.counts, sizeof counts, cudaMemcpyDeviceToHost, stream));
    EGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
    log_debug([&] {
      return "cuda EmulatedFP64 " + describe(g) + " -> " + std::to_string(moduli) + " moduli, float64 for " +
             std::to_string(counts[0] - counts[1]) + " wide rows of op(A), " + std::to_string(counts[2] - counts[3]) +
             " wide columns of op(B), " + std::to_string(counts[1] + counts[3]) + " with Inf/NaN";
    });
  }
}

}  // namespace egemm::cuda
