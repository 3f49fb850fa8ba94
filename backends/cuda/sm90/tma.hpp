// TMA (cp.async.bulk.tensor) loads of one 2-D box of a split piece into
// shared memory, completed on an mbarrier. The tensor map (host side:
// sm90/tensor_map.hpp) carries the 128-byte swizzle the wgmma descriptors
// expect. Device code only; used inside the sm_90a guard.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "backends/cuda/sm90/mbarrier.hpp"

namespace egemm::cuda::hopper {

// The box at (k, row) of `map` into `smem`; its bytes count toward `bar`'s transaction.
__device__ __forceinline__ void tma_load_2d(void* smem, const CUtensorMap* map, std::uint64_t* bar, int k, int row) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::"r"(
          smem_u32(smem)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_u32(bar)), "r"(k), "r"(row)
      : "memory");
}

// The same box into `smem` of every CTA in `cta_mask` (same offset), each
// CTA's barrier at `bar`'s offset counting the bytes.
__device__ __forceinline__ void tma_load_2d_multicast(void* smem, const CUtensorMap* map, std::uint64_t* bar, int k,
                                                      int row, std::uint16_t cta_mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
      " [%0], [%1, {%3, %4}], [%2], %5;\n" ::"r"(smem_u32(smem)),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(smem_u32(bar)), "r"(k), "r"(row), "h"(cta_mask)
      : "memory");
}

// A hint: the line holding p into L1 (no register; p must be a valid global address).
__device__ __forceinline__ void prefetch_l1(const void* p) {
  asm volatile("prefetch.global.L1 [%0];\n" ::"l"(__cvta_generic_to_global(p)));
}

// Fetches the descriptor into the TMA unit's cache before the first load needs it.
__device__ __forceinline__ void tma_prefetch_descriptor(const CUtensorMap* map) {
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

}  // namespace egemm::cuda::hopper
