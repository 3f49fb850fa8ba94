// The shared-memory side of the fused gemm: where each pipeline stage keeps
// the k-tile of every piece of A and B, the swizzle that makes ldmatrix
// conflict-free, and the cp.async copy of one k-tile into a stage.
#pragma once

#include "backends/cuda/sm80/mma_sm80.hpp"
#include "egemm/gemm_args.hpp"

namespace egemm::cuda {

// A k-tile row is 128 bytes: eight 16-byte chunks spanning all 32 banks.
// ldmatrix reads one chunk of 8 consecutive rows; unswizzled, all 8 would hit
// the same 4 banks (8-way conflict). Chunk c of row r is stored at chunk
// c ^ (r % 8), so those 8 reads cover all 32 banks; cp.async writes a row's
// 8 chunks from 8 consecutive threads, conflict-free too.
__device__ __forceinline__ int swizzled_offset(int row, int chunk) {
  return row * 128 + ((chunk ^ (row & 7)) << 4);  // in bytes
}

template <class Tile, int Pieces>
struct StageLayout {
  static constexpr int a_piece_bytes = Tile::bm * Tile::row_bytes;
  static constexpr int b_piece_bytes = Tile::bn * Tile::row_bytes;
  static constexpr int stage_bytes = Pieces * (a_piece_bytes + b_piece_bytes);
  static constexpr int bytes = Tile::stages * stage_bytes;

  __device__ static unsigned char* a(unsigned char* smem, int stage, int piece) {
    return smem + stage * stage_bytes + piece * a_piece_bytes;
  }
  __device__ static unsigned char* b(unsigned char* smem, int stage, int piece) {
    return smem + stage * stage_bytes + Pieces * a_piece_bytes + piece * b_piece_bytes;
  }
};

// Copies rows [0, Rows) x bytes [k0, k0 + 128) of a k-contiguous piece (row
// stride `ld` bytes) into a swizzled stage buffer, 16 bytes per cp.async.
template <int Rows, int Threads>
__device__ __forceinline__ void copy_tile_async(unsigned char* smem, const unsigned char* gmem, index_t ld,
                                                index_t k0) {
  constexpr int chunks = Rows * 8;
  static_assert(chunks % Threads == 0, "every thread copies the same number of chunks");
#pragma unroll
  for (int c = threadIdx.x; c < chunks; c += Threads) {
    const int row = c / 8, chunk = c % 8;
    sm80::cp_async_16(smem + swizzled_offset(row, chunk), gmem + row * ld + k0 + chunk * 16);
  }
}

// One k-tile of every piece of the block's A rows and B columns into `stage`.
template <class Tile, int Pieces>
__device__ __forceinline__ void load_stage(unsigned char* smem, int stage, const unsigned char* const (&a)[Pieces],
                                           const unsigned char* const (&b)[Pieces], index_t ld, index_t k0) {
  using Layout = StageLayout<Tile, Pieces>;
#pragma unroll
  for (int piece = 0; piece < Pieces; ++piece) {
    copy_tile_async<Tile::bm, Tile::threads>(Layout::a(smem, stage, piece), a[piece], ld, k0);
    copy_tile_async<Tile::bn, Tile::threads>(Layout::b(smem, stage, piece), b[piece], ld, k0);
  }
}

}  // namespace egemm::cuda
