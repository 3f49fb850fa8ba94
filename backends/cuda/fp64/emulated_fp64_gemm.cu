// EmulatedFP64 on the GPU (Ozaki scheme II, numerics/crt_moduli.hpp): per
// operand a split kernel (row statistics, scale, flags, the residues of all
// moduli, from the row held in shared memory), cuBLAS INT8 products (IMMA,
// int32 sums: one call per modulus, or one strided-batched call over the
// moduli where they are small) per panel of C's columns, then one kernel that
// reads each entry's int32 products once, reconstructs it exactly, unscales it
// and applies alpha/beta; entries of rows or columns with Inf/NaN or too wide
// a spread (listed by the split, on the device) are float64 sums at least as
// accurate as DGEMM's. Where those would be more than a small share of C
// (numerics/fp64_handoff.hpp), the call is cuBLAS DGEMM instead: after the
// splits, a conditional graph node (handoff_graph.hpp) runs either DGEMM or
// the products, entries and float64 sums, chosen on the device from the
// split's counts; before the splits, a sample of both operands' rows
// (handoff_sample.hpp) may already decide the hand-off, and the splits then
// read nothing. Small problems run cuBLAS DGEMM. All on the caller's
// stream, no host read of device data (except the debug log's counts, when
// EGEMM_LOG=debug and the stream is not being captured).
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "backends/cuda/cublas/cublas_native.hpp"
#include "backends/cuda/cuda_gemm.hpp"
#include "backends/cuda/fp64/handoff_graph.hpp"
#include "backends/cuda/fp64/handoff_sample.hpp"
#include "backends/cuda/runtime/cuda_check.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/runtime/per_device.hpp"
#include "backends/cuda/runtime/tuning.hpp"
#include "backends/cuda/runtime/workspace.hpp"
#include "egemm/errors.hpp"
#include "egemm/log.hpp"
#include "egemm/numerics/crt_moduli.hpp"
#include "egemm/numerics/float64_sum.hpp"
#include "egemm/numerics/fp64_handoff.hpp"

namespace egemm::cuda {
namespace {

namespace crt = numerics::crt;

constexpr index_t depth_multiple = 16;  // IMMA: leading dimensions of the int8 operands, multiples of 16 bytes
constexpr std::size_t products_cap = std::size_t(4) << 30;  // the int32 products of one panel of C's columns

index_t round_up(index_t v, index_t multiple) { return (v + multiple - 1) / multiple * multiple; }

// One operand (op(A), or op(B)^T) as rows of depth k, split.
struct Fp64Operand {
  index_t rows = 0, depth = 0, depth_pad = 0;
  signed char* residues = nullptr;  // [modulus][rows][depth_pad], k-contiguous (IMMA's "T" layout)
  int* scale = nullptr;             // s: X = RN(x 2^s)
  int* exponent = nullptr;          // E (crt::zero_row_exponent: a zero row)
  unsigned char* float64 = nullptr; // 1: Inf/NaN in the row, 2: too wide; its entries are float64 sums
  unsigned* counts = nullptr;       // [0]: flagged rows, [1]: of them with Inf/NaN (of the split)
  int* flagged = nullptr;           // the flagged rows, in no order: the first list_capacity of them
  index_t list_capacity = 0;        // crt::max_kept_flagged_rows(rows): more hand the call off
  double* transposed = nullptr;     // the rows k-contiguous where the operand stores them strided
  const double* rows_base = nullptr;  // the rows k-contiguous: row r at rows_base + r * rows_ld
  index_t rows_ld = 0;
};

// --- transpose: rows whose values are strided become k-contiguous ----------------------

// Whether the call is already handed off when a split or transpose runs: by the
// sample (crt::sample_hands_off, its counts final: it ran before the splits on the
// stream), or by the operand split before this one alone (crt::operand_hands_off,
// its count final too). Nothing of this operand is read then, so its split and
// transpose do nothing.
struct DecidedBy {
  const unsigned* sampled = nullptr;  // the sample's two counts
  index_t m = 0, n = 0;
  const unsigned* counts = nullptr;  // the other operand's; null: none split before
  index_t rows = 0;                  // its rows
  __device__ bool hands_off() const {
    return crt::sample_hands_off(m, n, sampled[0], sampled[1]) ||
           (counts != nullptr && crt::operand_hands_off(rows, *counts));
  }
};

// out[r * depth + p] = x(r, p) for x(r, p) = base[r + p * ld] (rows contiguous).
__global__ void transpose_kernel(const double* __restrict__ base, index_t ld, index_t rows, index_t depth,
                                 double* __restrict__ out, DecidedBy decided) {
  if (decided.hands_off()) return;
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

// Rows up to cached_depth (96 KiB) are held in shared memory by blocks of 256 threads (two or
// more blocks an SM), rows up to cached_depth_deep (128 KiB) by blocks of 512 (one an SM);
// deeper rows are read from global memory three times (the later reads mostly from L2).
constexpr index_t cached_depth = 12288, cached_depth_deep = 16384;
constexpr int split_values = 8;  // residues a thread forms per step: 8 bytes stored per modulus

template <int Threads, class T, class Op>
__device__ T block_reduce(T v, Op op, T* shared) {
  for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();  // `shared` may still be read from a previous reduction
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = shared[0];
  for (int w = 1; w < Threads / 32; ++w) v = op(v, shared[w]);
  return v;
}

// Where value p of a row cached in shared memory lives: the low three bits of p flipped by bits
// 4..6, so that the residue pass (thread t reads values 8t..8t+7, one a step) has a warp's 32
// reads on 16 distinct bank pairs, while the statistics passes (consecutive p across a warp)
// stay conflict-free. A permutation within each aligned group of 8.
__device__ __forceinline__ int cached_slot(int p) { return p ^ ((p >> 4) & 7); }

template <bool Cached>
struct SplitRow {
  const double* values;
  __device__ __forceinline__ double operator[](index_t p) const {
    if constexpr (Cached) return values[cached_slot(static_cast<int>(p))];
    else return values[p];
  }
};

// Four bytes (each < 256) packed low first.
__device__ __forceinline__ uint32_t pack_bytes(uint32_t b0, uint32_t b1, uint32_t b2, uint32_t b3) {
  return __byte_perm(__byte_perm(b0, b1, 0x0040), __byte_perm(b2, b3, 0x0040), 0x5410);
}

// The residues of 8 consecutive values for modulus L, 8 bytes stored at once (streaming: the
// INT8 products read them from DRAM long after).
template <int L>
__device__ __forceinline__ void write_residues(signed char* out, index_t plane, int moduli,
                                               const crt::ResidueWords x[split_values]) {
  if (L >= moduli) return;
  uint2 w;
  if constexpr (crt::modulus(L) == 256) {  // X's low byte as it is
    w.x = pack_bytes(x[0].lo & 0xFFu, x[1].lo & 0xFFu, x[2].lo & 0xFFu, x[3].lo & 0xFFu);
    w.y = pack_bytes(x[4].lo & 0xFFu, x[5].lo & 0xFFu, x[6].lo & 0xFFu, x[7].lo & 0xFFu);
  } else {  // (X + 128) mod m with the top bit flipped: X mod m - 128..m - 129 as int8
    uint32_t r[split_values];
#pragma unroll
    for (int q = 0; q < split_values; ++q) r[q] = crt::residue_offset<L>(x[q]);
    w.x = pack_bytes(r[0], r[1], r[2], r[3]) ^ 0x80808080u;
    w.y = pack_bytes(r[4], r[5], r[6], r[7]) ^ 0x80808080u;
  }
  __stcs(reinterpret_cast<uint2*>(out + L * plane), w);
}

template <int... L>
__device__ __forceinline__ void write_all_residues(signed char* out, index_t plane, int moduli,
                                                   const crt::ResidueWords x[split_values],
                                                   std::integer_sequence<int, L...>) {
  (write_residues<L>(out, plane, moduli, x), ...);
}

// Row r of x (values at row + p, p < depth): max, then the fixed-point sums,
// then the residues. Cached: the first pass puts the row in shared memory and
// the other two read it there, so the row leaves DRAM once. The residue pass
// is integer multiply-adds (crt::residue_offset: two dp4a and a remainder by
// multiplication per modulus), about 5 operations per residue.
template <int Threads, bool Cached>
__global__ void __launch_bounds__(Threads) split_kernel(const double* __restrict__ base, index_t row_stride,
                                                        Fp64Operand op, int moduli, int beta, int spread_log2,
                                                        DecidedBy decided) {
  if (decided.hands_off()) return;
  extern __shared__ double cached_values[];
  __shared__ unsigned long long shared[Threads / 32];
  const index_t r = blockIdx.x;
  const double* global_row = base + r * row_stride;
  const index_t k = op.depth;

  double largest = 0.0;
  unsigned nonfinite = 0;
#pragma unroll 4
  for (index_t p = threadIdx.x; p < k; p += Threads) {
    const double v = global_row[p];
    if constexpr (Cached) cached_values[cached_slot(static_cast<int>(p))] = v;
    if (isfinite(v)) largest = fmax(largest, fabs(v));
    else nonfinite = 1;
  }
  // |x| >= 0 orders as its bits: the maximum of the bits is the bits of the maximum.
  // (The reductions' barriers also make the cached row visible to the whole block.)
  const auto largest_bits = block_reduce<Threads, unsigned long long>(
      static_cast<unsigned long long>(__double_as_longlong(largest)),
      [](unsigned long long a, unsigned long long b) { return a > b ? a : b; }, shared);
  nonfinite = static_cast<unsigned>(block_reduce<Threads, unsigned long long>(
      nonfinite, [](unsigned long long a, unsigned long long b) { return a | b; }, shared));
  largest = __longlong_as_double(static_cast<long long>(largest_bits));
  const SplitRow<Cached> row{Cached ? cached_values : global_row};

  crt::RowStats s{crt::zero_row_exponent, 0, 0, nonfinite != 0};
  if (largest > 0.0) {
    s.exponent = crt::value_exponent(largest);
    const crt::Pow2Pair to_fixed = crt::pow2_pair(crt::stat_fraction_bits - s.exponent);
    uint64_t squares = 0, magnitudes = 0;
    for (index_t p = threadIdx.x; p < k; p += Threads) {
      const double v = row[p];
      if (isfinite(v)) crt::add_to_sums(v, to_fixed, squares, magnitudes);
    }
    const auto add = [](unsigned long long a, unsigned long long b) { return a + b; };
    s.squares = block_reduce<Threads, unsigned long long>(squares, add, shared);
    s.magnitudes = block_reduce<Threads, unsigned long long>(magnitudes, add, shared);
  }
  const int scale = crt::row_scale(s, k, beta);
  const unsigned char flag = s.nonfinite ? 1 : (crt::row_too_wide(s, k, spread_log2) ? 2 : 0);
  __shared__ bool residues_unread;
  if (threadIdx.x == 0) {
    op.scale[r] = scale;
    op.exponent[r] = s.exponent;
    op.float64[r] = flag;
    if (flag != 0) {  // counted for the choice and the debug log, listed for the float64 pass
      const unsigned slot = atomicAdd(&op.counts[0], 1u);
      if (slot < op.list_capacity) op.flagged[slot] = static_cast<int>(r);
      if (flag == 1) atomicAdd(&op.counts[1], 1u);
    }
    // A flagged row's entries are float64 sums. Past list_capacity flagged rows the call
    // hands off whatever else is flagged (the count only grows): no residue is read then,
    // and on wide inputs the split is a read of the operand.
    residues_unread = flag != 0 || crt::operand_hands_off(op.rows, *static_cast<volatile unsigned*>(op.counts));
  }
  __syncthreads();
  if (residues_unread) return;

  const index_t plane = op.rows * op.depth_pad;
  signed char* out = op.residues + r * op.depth_pad;
  const crt::Pow2Pair to_integer = crt::pow2_pair(scale);
  for (index_t p = split_values * static_cast<index_t>(threadIdx.x); p < op.depth_pad; p += split_values * Threads) {
    crt::ResidueWords X[split_values];
#pragma unroll
    for (int q = 0; q < split_values; ++q)
      X[q] = crt::residue_words(p + q < k ? crt::scaled_integer(row[p + q], to_integer) : 0);  // padding: X = 0
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
};

template <int... L>
__device__ __forceinline__ double reconstruct_entry(const int (&P)[sizeof...(L)], const crt::Constants& c,
                                                    std::integer_sequence<int, L...>) {
  crt::Accumulator acc;
  (crt::accumulate<L>(acc, P[L], c), ...);
  return crt::reconstruct(acc, c);
}

constexpr int entries_threads = 128;

// One entry of C per thread. Its Moduli products are loaded first, all at
// once (streaming: read once), before anything that could branch, so that
// each thread has them all in flight; the flags and scales follow.
template <int Moduli>
__global__ void __launch_bounds__(entries_threads) entries_kernel(EntryArgs e, const crt::Constants constants) {
  const index_t i = static_cast<index_t>(blockIdx.x) * entries_threads + threadIdx.x;
  const index_t jl = blockIdx.y;
  if (i >= e.m) return;
  int P[Moduli];
  const int* products = e.products + i + jl * e.ldp;
#pragma unroll
  for (int l = 0; l < Moduli; ++l) P[l] = __ldcs(products + l * e.plane);
  const index_t j = e.j0 + jl;
  if (e.a.float64[i] != 0 || e.b.float64[j] != 0) return;  // the float64 pass's
  double* c = e.c + i + j * e.ldc;
  const int ea = e.a.exponent[i], eb = e.b.exponent[j];
  if (crt::products_may_overflow(ea, eb, e.k)) {
    const double s = numerics::float64_dot(e.a.rows_base + i * e.a.rows_ld, 1, e.b.rows_base + j * e.b.rows_ld, 1, e.k);
    *c = crt::alpha_beta(s, e.alpha, e.beta, c);
    return;
  }
  const double v = reconstruct_entry(P, constants, std::make_integer_sequence<int, Moduli>{});
  *c = crt::alpha_beta(crt::unscale(v, -(e.a.scale[i] + e.b.scale[j])), e.alpha, e.beta, c);
}

using EntriesKernel = void (*)(EntryArgs, const crt::Constants);

template <int... N>
EntriesKernel entries_kernel_for(int moduli, std::integer_sequence<int, N...>) {
  static constexpr EntriesKernel kernels[] = {entries_kernel<crt::min_moduli + N>...};
  return kernels[moduli - crt::min_moduli];
}

EntriesKernel entries_kernel_for(int moduli) {
  return entries_kernel_for(moduli, std::make_integer_sequence<int, crt::max_moduli - crt::min_moduli + 1>{});
}

// The entries of flagged rows of op(A) and columns of op(B) (numerics/float64_sum.hpp),
// 64 x 64 entries per block, 4 x 4 per thread, k in steps of 16 through shared
// memory from the k-contiguous rows; each entry's operations in the order
// float64_dot takes them. RowsListed: the block's rows are 64 of op(A)'s
// flagged ones (the split's list), its columns 64 consecutive ones; otherwise
// its rows are 64 consecutive ones and its columns 64 of op(B)'s flagged ones,
// entries of flagged rows left to the first kind. So the work is that of the
// flagged entries (rounded to 64 rows or columns), wherever the flags fall;
// blocks past a list's end exit at once.
constexpr int f64_tile = 64, f64_step = 16, f64_threads = 256;
static_assert(numerics::float64_block % f64_step == 0, "a block of the sum spans whole steps");

template <bool RowsListed>
__global__ void __launch_bounds__(f64_threads) float64_tiles_kernel(EntryArgs e) {
  const Fp64Operand& listed_op = RowsListed ? e.a : e.b;
  const index_t listed = min(static_cast<index_t>(*listed_op.counts), listed_op.list_capacity);
  const index_t tile = RowsListed ? blockIdx.x : blockIdx.y;
  if (tile * f64_tile >= listed) return;
  const int t = threadIdx.x;
  __shared__ index_t rows[f64_tile], cols[f64_tile];  // -1: none
  if (t < f64_tile) {
    const index_t q = tile * f64_tile + t, i = static_cast<index_t>(blockIdx.x) * f64_tile + t;
    rows[t] = RowsListed ? (q < listed ? listed_op.flagged[q] : -1) : (i < e.m ? i : -1);
  } else if (t < 2 * f64_tile) {
    const index_t q = tile * f64_tile + t - f64_tile, j = static_cast<index_t>(blockIdx.y) * f64_tile + t - f64_tile;
    cols[t - f64_tile] = RowsListed ? (j < e.n_panel ? j : -1) : (q < listed ? listed_op.flagged[q] : -1);
  }
  __syncthreads();

  __shared__ double As[f64_step][f64_tile + 1], Bs[f64_step][f64_tile + 1];
  const int tx = t % 16, ty = t / 16;  // entries (rows[ty*4 + r], cols[tx*4 + c])
  numerics::CompensatedSum sum[4][4];
  double block[4][4];
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 4; ++c) block[r][c] = 0.0;
  const int load_row = t / 4, load_k = (t % 4) * 4;  // 64 rows x 16 k: 4 consecutive values a thread
  const index_t i_load = rows[load_row], j_load = cols[load_row];
  for (index_t p0 = 0; p0 < e.k; p0 += f64_step) {
    __syncthreads();
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const index_t p = p0 + load_k + q;
      As[load_k + q][load_row] = p < e.k && i_load >= 0 ? e.a.rows_base[i_load * e.a.rows_ld + p] : 0.0;
      Bs[load_k + q][load_row] = p < e.k && j_load >= 0 ? e.b.rows_base[j_load * e.b.rows_ld + p] : 0.0;
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < f64_step; ++kk) {
      double a[4], b[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) a[r] = As[kk][ty * 4 + r];
#pragma unroll
      for (int c = 0; c < 4; ++c) b[c] = Bs[kk][tx * 4 + c];
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) block[r][c] = __fma_rn(a[r], b[c], block[r][c]);
    }
    const index_t done = p0 + f64_step;
    if (done % numerics::float64_block == 0 || done >= e.k) {  // a block of the sum ends here (or k does)
#pragma unroll
      for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          numerics::fold_block(sum[r][c], block[r][c]);
          block[r][c] = 0.0;
        }
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r)
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const index_t i = rows[ty * 4 + r], j = cols[tx * 4 + c];
      if (i < 0 || j < 0) continue;
      if (!RowsListed && e.a.float64[i] != 0) continue;  // a listed row: the other kind's
      double* out = e.c + i + j * e.ldc;
      *out = crt::alpha_beta(numerics::value_of(sum[r][c]), e.alpha, e.beta, out);
    }
}

// --- the call --------------------------------------------------------------------------

bool fits_int(const GemmArgs64& g) {
  for (index_t v : {g.m, g.n, g.k, g.lda, g.ldb, g.ldc})
    if (v > INT_MAX) return false;
  return true;
}

// cuBLAS DGEMM of the whole call on `h` (its stream and workspace set).
void dgemm_on(cublasHandle_t h, const GemmArgs64& g) {
  const cublasOperation_t ta = to_cublas(g.trans_a), tb = to_cublas(g.trans_b);
  if (fits_int(g)) {
    EGEMM_CUBLAS_CHECK(cublasDgemm(h, ta, tb, static_cast<int>(g.m), static_cast<int>(g.n), static_cast<int>(g.k),
                                   &g.alpha, g.a, static_cast<int>(g.lda), g.b, static_cast<int>(g.ldb), &g.beta, g.c,
                                   static_cast<int>(g.ldc)));
  } else {
    EGEMM_CUBLAS_CHECK(cublasDgemm_64(h, ta, tb, g.m, g.n, g.k, &g.alpha, g.a, g.lda, g.b, g.ldb, &g.beta, g.c, g.ldc));
  }
}

void native_dgemm(const GemmArgs64& g, cudaStream_t stream) {
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));
  dgemm_on(h, g);
}

// cuBLAS's workspace inside the choice's bodies: a graph body may hold no memory
// allocation, which cuBLAS's default workspace would add to a capture. 32 MiB is
// what cuBLAS's documentation recommends on Hopper (4 MiB before).
constexpr std::size_t cublas_workspace_bytes = std::size_t(32) << 20;

// The counts' words: op(A)'s two, op(B)'s two, the sample's two.
constexpr int count_words = 6;

// The call's pieces in its workspace (a measuring carver only counts them).
struct Plan {
  int moduli = 0;
  index_t ldp = 0, panel = 0;  // products' leading dimension, columns of C per panel
  Fp64Operand a, b;
  int* products = nullptr;
  unsigned* counts = nullptr;  // a's two counts, then b's, then the sample's (flagged rows of op(A), of op(B))
  unsigned* sampled = nullptr; // the sample's two, counts + 4
  void* cublas_workspace = nullptr;
};

Plan carve(const GemmArgs64& g, int moduli, WorkspaceCarver& w) {
  Plan p;
  p.moduli = moduli;
  p.ldp = round_up(g.m, 16);
  const std::size_t column_bytes = static_cast<std::size_t>(moduli) * static_cast<std::size_t>(p.ldp) * sizeof(int);
  p.panel = std::max<index_t>(64, static_cast<index_t>(products_cap / column_bytes) / 64 * 64);
  p.panel = std::min<index_t>(p.panel, g.n);
  p.panel = std::min<index_t>(p.panel, 65535);  // gridDim.y of the entries kernel
  p.counts = w.take<unsigned>(count_words);
  p.sampled = w.measures_only() ? nullptr : p.counts + 4;
  const auto one = [&](Fp64Operand& op, const OperandRows64& x, unsigned* counts) {
    op.rows = x.rows;
    op.depth = g.k;
    op.depth_pad = round_up(g.k, depth_multiple);
    op.residues = w.take<signed char>(static_cast<std::size_t>(moduli * op.rows * op.depth_pad));
    op.scale = w.take<int>(static_cast<std::size_t>(op.rows));
    op.exponent = w.take<int>(static_cast<std::size_t>(op.rows));
    op.float64 = w.take<unsigned char>(static_cast<std::size_t>(op.rows));
    op.counts = counts;
    op.list_capacity = crt::max_kept_flagged_rows(op.rows);
    op.flagged = w.take<int>(static_cast<std::size_t>(std::max<index_t>(1, op.list_capacity)));
    if (x.depth_stride != 1) op.transposed = w.take<double>(static_cast<std::size_t>(op.rows * op.depth));
    op.rows_base = op.transposed != nullptr ? op.transposed : x.base;
    op.rows_ld = op.transposed != nullptr ? op.depth : x.row_stride;
  };
  one(p.a, g.a_rows(), p.counts);
  one(p.b, g.b_cols(), w.measures_only() ? nullptr : p.counts + 2);
  p.products = w.take<int>(static_cast<std::size_t>(moduli) * static_cast<std::size_t>(p.ldp * p.panel));
  p.cublas_workspace = w.take<unsigned char>(cublas_workspace_bytes);
  return p;
}

PerDevice<bool> split_smem_opted_in, deep_split_smem_opted_in;

void launch_split(const OperandRows64& x, Fp64Operand& op, int moduli, int beta, DecidedBy decided,
                  cudaStream_t stream) {
  const double* base = x.base;
  index_t row_stride = x.row_stride;
  if (x.depth_stride != 1) {  // rows strided: make them k-contiguous first
    const dim3 grid(static_cast<unsigned>((x.rows + 31) / 32), static_cast<unsigned>((x.depth + 31) / 32));
    launch_plain(transpose_kernel, grid, dim3(32, 8), 0, stream, x.base, x.depth_stride, x.rows, x.depth,
                 op.transposed, decided);
    base = op.transposed;
    row_stride = x.depth;
  }
  const dim3 grid(static_cast<unsigned>(x.rows));
  const int spread = crt::spread_log2_for(moduli);
  // The cached row: round_up(depth, 8) values (cached_slot permutes within groups of 8).
  const std::size_t cached_bytes = static_cast<std::size_t>(round_up(x.depth, 8)) * sizeof(double);
  if (x.depth <= cached_depth) {
    allow_dynamic_smem(split_smem_opted_in, split_kernel<256, true>, static_cast<int>(cached_depth * sizeof(double)));
    launch_plain(split_kernel<256, true>, grid, dim3(256), cached_bytes, stream, base, row_stride, op, moduli, beta,
                 spread, decided);
  } else if (x.depth <= cached_depth_deep) {
    allow_dynamic_smem(deep_split_smem_opted_in, split_kernel<512, true>,
                       static_cast<int>(cached_depth_deep * sizeof(double)));
    launch_plain(split_kernel<512, true>, grid, dim3(512), cached_bytes, stream, base, row_stride, op, moduli, beta,
                 spread, decided);
  } else {
    launch_plain(split_kernel<256, false>, grid, dim3(256), 0, stream, base, row_stride, op, moduli, beta, spread, decided);
  }
}

EntryArgs entry_args(const GemmArgs64& g, const Plan& p) {
  return EntryArgs{p.products, p.ldp, 0, g.m, 0, 0, g.k, p.a, p.b, g.alpha, g.beta, g.c, g.ldc};
}

// This thread's cuBLAS handle on `stream` with the plan's workspace.
cublasHandle_t body_handle(const Plan& plan, cudaStream_t stream) {
  cublasHandle_t h = cublas_handle();
  EGEMM_CUBLAS_CHECK(cublasSetStream(h, stream));  // (resets the workspace: set it after)
  EGEMM_CUBLAS_CHECK(cublasSetWorkspace(h, plan.cublas_workspace, cublas_workspace_bytes));
  return h;
}

// The sample and the splits, on the caller's stream: the counts the choice reads.
void enqueue_splits(const GemmArgs64& g, Plan& plan, const crt::Constants& constants, cudaStream_t stream) {
  EGEMM_CUDA_CHECK(cudaMemsetAsync(plan.counts, 0, count_words * sizeof(unsigned), stream));
  // The sample first: where it hands the call off (wide inputs well past the share),
  // neither split reads anything and the hand-off costs the sample's read of ~512 rows
  // of each operand.
  enqueue_handoff_sample(g.a_rows(), g.b_cols(), crt::spread_log2_for(plan.moduli), plan.sampled, stream);
  // op(B) first: its rows (columns of B stored 'N') need no transpose, and where they alone
  // hand the call off, op(A) is not read at all.
  launch_split(g.b_cols(), plan.b, plan.moduli, constants.beta, DecidedBy{plan.sampled, g.m, g.n, nullptr, 0}, stream);
  launch_split(g.a_rows(), plan.a, plan.moduli, constants.beta,
               DecidedBy{plan.sampled, g.m, g.n, plan.b.counts, plan.b.rows}, stream);
}

// The emulated call after the splits: the choice's body 1.
void enqueue_emulated(const GemmArgs64& g, const Plan& plan, const crt::Constants& constants, cudaStream_t stream) {
  cublasHandle_t h = body_handle(plan, stream);
  const int one = 1, zero = 0;
  const index_t kp = plan.a.depth_pad;
  // One product per modulus where each is large (cuBLAS's kernel for one 8192^3 product ran at
  // ~1430 TOPS on an H200, its strided-batched kernel over 15 of them at ~1220), a strided-batched
  // call over the moduli where they are small and launches would dominate.
  const bool one_call_per_modulus = static_cast<double>(g.m) * static_cast<double>(g.n) >= 4096.0 * 4096.0;
  // Where the products take several column panels (their int32 planes past the panel's budget), each
  // panel's entries are written before the next panel's products run: a cuBLAS failure there throws
  // with C partly written (egemm::device_error, C unspecified, as after any failure past the enqueue).
  for (index_t j0 = 0; j0 < g.n; j0 += plan.panel) {
    const index_t cols = std::min(plan.panel, g.n - j0);
    // P_l = A_l^T B_l for every modulus l: int8 in, exact int32 sums out.
    if (one_call_per_modulus) {
      for (int l = 0; l < plan.moduli; ++l)
        EGEMM_CUBLAS_CHECK(cublasGemmEx(
            h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(g.m), static_cast<int>(cols), static_cast<int>(kp), &one,
            plan.a.residues + l * g.m * kp, CUDA_R_8I, static_cast<int>(kp), plan.b.residues + l * g.n * kp + j0 * kp,
            CUDA_R_8I, static_cast<int>(kp), &zero, plan.products + l * plan.ldp * cols, CUDA_R_32I,
            static_cast<int>(plan.ldp), CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    } else {
      EGEMM_CUBLAS_CHECK(cublasGemmStridedBatchedEx(
          h, CUBLAS_OP_T, CUBLAS_OP_N, static_cast<int>(g.m), static_cast<int>(cols), static_cast<int>(kp), &one,
          plan.a.residues, CUDA_R_8I, static_cast<int>(kp), static_cast<long long>(g.m * kp),
          plan.b.residues + j0 * kp, CUDA_R_8I, static_cast<int>(kp), static_cast<long long>(g.n * kp), &zero,
          plan.products, CUDA_R_32I, static_cast<int>(plan.ldp), static_cast<long long>(plan.ldp * cols), plan.moduli,
          CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    }
    EntryArgs e = entry_args(g, plan);
    e.plane = plan.ldp * cols;
    e.n_panel = cols;
    e.j0 = j0;
    launch_plain(entries_kernel_for(plan.moduli),
                 dim3(static_cast<unsigned>((g.m + entries_threads - 1) / entries_threads), static_cast<unsigned>(cols)),
                 dim3(entries_threads), 0, stream, e, constants);
  }
  EntryArgs e = entry_args(g, plan);
  e.n_panel = g.n;
  const auto tiles = [](index_t v) { return static_cast<unsigned>((std::max<index_t>(v, 1) + f64_tile - 1) / f64_tile); };
  launch_plain(float64_tiles_kernel<true>, dim3(tiles(plan.a.list_capacity), tiles(g.n)), dim3(f64_threads), 0, stream, e);
  launch_plain(float64_tiles_kernel<false>, dim3(tiles(g.m), tiles(plan.b.list_capacity)), dim3(f64_threads), 0, stream,
               e);
}

// Everything the choice's graph nodes depend on (handoff_graph.hpp's key).
std::vector<long long> choice_key(const GemmArgs64& g, const Plan& plan) {
  const auto address = [](const void* p) { return static_cast<long long>(reinterpret_cast<std::uintptr_t>(p)); };
  long long alpha = 0, beta = 0;
  std::memcpy(&alpha, &g.alpha, sizeof alpha);
  std::memcpy(&beta, &g.beta, sizeof beta);
  return {g.m, g.n, g.k, g.lda, g.ldb, g.ldc, static_cast<long long>(g.trans_a), static_cast<long long>(g.trans_b),
          address(g.a), address(g.b), address(g.c), alpha, beta, address(plan.counts), plan.moduli, plan.panel};
}

bool can_report(cudaStream_t stream) {
  if (!debug_log_enabled()) return false;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  return cudaStreamIsCapturing(stream, &capture) == cudaSuccess && capture == cudaStreamCaptureStatusNone;
}

// The smallest extents the moduli pay on: measured on an H200 (perf_tests/gemm_suite,
// EGEMM_SUITE_FP64=1), 2048^3 ran at 0.62x cuBLAS DGEMM, 4096^3 at 1.0x (with ~5x
// less error), 4096 x 4096 x 8192 at 1.13x, 8192^3 at 1.16x: the split and the
// int32 products' traffic grow with m n + (m + n) k, the INT8 products with m n k.
constexpr index_t min_extent = 4096;

}  // namespace

bool emulated_fp64_on_tensor_cores(index_t m, index_t n, index_t k) {
  if (k > crt::max_depth) return false;
  // The kernels' grids (float64_tiles_kernel: 64-wide tiles of n in gridDim.y) and cuBLAS's int extents.
  constexpr index_t extent_limit = index_t{65535} * f64_tile;
  if (m > extent_limit || n > extent_limit) return false;
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
                                   : " -> native_fp64 (the emulation cannot win here, or the shape exceeds its grids)");
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
  Plan plan = carve(g, moduli, scratch);
  enqueue_splits(g, plan, constants, stream);
  const HandoffCounts counts{plan.a.counts, plan.b.counts, plan.sampled, g.m, g.n};
  enqueue_device_choice(
      stream, counts, choice_key(g, plan), [&](cudaStream_t s) { dgemm_on(body_handle(plan, s), g); },
      [&](cudaStream_t s) { enqueue_emulated(g, plan, constants, s); });
  // This thread's handle back on the caller's stream with its own workspace (cuBLAS's
  // default): the plan's is freed with the call's scratch.
  EGEMM_CUBLAS_CHECK(cublasSetStream(cublas_handle(), stream));
  if (can_report(stream)) {
    unsigned c[count_words] = {0, 0, 0, 0, 0, 0};
    EGEMM_CUDA_CHECK(cudaMemcpyAsync(c, plan.counts, sizeof c, cudaMemcpyDeviceToHost, stream));
    EGEMM_CUDA_CHECK(cudaStreamSynchronize(stream));
    log_debug([&] {
      const std::string head = "cuda EmulatedFP64 " + describe(g);
      if (crt::sample_hands_off(g.m, g.n, c[4], c[5]))  // decided before the splits: they read nothing
        return head + " -> native_fp64 (" + std::to_string(c[4]) + " of " + std::to_string(crt::sample_size(g.m)) +
               " sampled rows of op(A), " + std::to_string(c[5]) + " of " + std::to_string(crt::sample_size(g.n)) +
               " sampled columns of op(B) flagged: handed off on the device before the splits)";
      if (crt::operand_hands_off(g.n, c[2]))  // op(B) alone decided: op(A) was not read
        return head + " -> native_fp64 (" + std::to_string(c[2] - c[3]) + " wide columns of op(B), " +
               std::to_string(c[3]) + " with Inf/NaN: handed off on the device, op(A) not read)";
      const std::string flagged = std::to_string(c[0] - c[1]) + " wide rows of op(A), " +
                                  std::to_string(c[2] - c[3]) + " wide columns of op(B), " +
                                  std::to_string(c[1] + c[3]) + " with Inf/NaN";
      return crt::hands_off_to_dgemm(g.m, g.n, c[0], c[2])
                 ? head + " -> native_fp64 (" + flagged + ": handed off on the device)"
                 : head + " -> " + std::to_string(moduli) + " moduli, float64 for " + flagged;
    });
  }
}

}  // namespace egemm::cuda
