// The shared-memory ring the producer fills and the consumers drain: where
// each stage's piece boxes, the staged epilogue's buffers and the stages'
// full/empty mbarriers live, the cursor that walks it, and a consumer's
// hand-back of a stage.
#pragma once

#include <cstdint>

#include "backends/cuda/sm90/mbarrier.hpp"
#include "egemm/model/hopper_tiles.hpp"

namespace egemm::cuda::hopper {

// The position in the ring: stage and the parity of its current phase.
struct RingCursor {
  int stage = 0;
  std::uint32_t phase = 0;
  template <int Stages>
  __device__ __forceinline__ void advance() {
    if (++stage == Stages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

// Stage s: A piece boxes, then B piece boxes, each 1024-byte aligned (the
// 128B swizzle's atom); then full[stages] and empty[stages] barriers.
template <class Tile>
struct StageRing {
  unsigned char* base;
  __device__ __forceinline__ unsigned char* a(int stage, int piece) const {
    return base + stage * Tile::stage_bytes + piece * Tile::a_box_bytes;
  }
  __device__ __forceinline__ unsigned char* b(int stage, int piece) const {
    return base + stage * Tile::stage_bytes + Tile::pieces * Tile::a_box_bytes + piece * Tile::b_box_bytes;
  }
  // Buffer `buffer` of consumer `consumer`'s staged epilogue (1 KiB-aligned, as the swizzle needs).
  __device__ __forceinline__ unsigned char* epilogue(int consumer, int buffer) const {
    return base + Tile::stages * Tile::stage_bytes +
           (consumer * Tile::epilogue_buffers + buffer) * model::hopper_epilogue_buffer_bytes;
  }
  __device__ __forceinline__ std::uint64_t* full(int stage) const {
    return reinterpret_cast<std::uint64_t*>(base + Tile::stages * Tile::stage_bytes + Tile::epilogue_bytes) + stage;
  }
  __device__ __forceinline__ std::uint64_t* empty(int stage) const { return full(Tile::stages) + stage; }
};

// Hands a stage back to the producer(s): one arrival per consumer warp, on
// every block of the cluster whose producer writes into it.
template <class Tile>
__device__ __forceinline__ void release(const StageRing<Tile>& ring, int stage, int thread) {
  if (thread % 32 != 0) return;
  if constexpr (Tile::cluster == 1) {
    mbarrier_arrive(ring.empty(stage));
  } else {
#pragma unroll
    for (int cta = 0; cta < Tile::cluster; ++cta) mbarrier_arrive_cluster(ring.empty(stage), cta);
  }
}

}  // namespace egemm::cuda::hopper
