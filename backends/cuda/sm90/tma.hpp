// TMA (cp.async.bulk.tensor): loads of one 2-D box of a split piece into
// shared memory, completed on an mbarrier, and stores of a box of C from
// shared memory, completed in bulk groups. The tensor maps (host side:
// sm90/tensor_maps.hpp) carry the 128-byte swizzle the wgmma descriptors and
// the staged epilogue use. Device code only; used inside the sm_90a guard.
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

// The box at (row, col) of `map` (C, rows contiguous) from `smem`, in this
// thread's current bulk group. Parts of the box outside the tensor are not
// written, but along the contiguous dimension only in whole 16 bytes (see
// c_map_possible).
__device__ __forceinline__ void tma_store_2d(const CUtensorMap* map, const void* smem, int row, int col) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(
                   reinterpret_cast<std::uint64_t>(map)),
               "r"(smem_u32(smem)), "r"(row), "r"(col)
               : "memory");
}

// Closes this thread's bulk stores issued since the last commit into one group.
__device__ __forceinline__ void bulk_commit() { asm volatile("cp.async.bulk.commit_group;\n" ::: "memory"); }

// Waits until at most `Pending` of this thread's bulk groups are still reading shared memory.
template <int Pending>
__device__ __forceinline__ void bulk_wait_read() {
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(Pending) : "memory");
}

// Waits until at most `Pending` of this thread's bulk groups are still writing global memory.
template <int Pending>
__device__ __forceinline__ void bulk_wait() {
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(Pending) : "memory");
}

// Makes this thread's ordinary shared-memory writes visible to the async proxy (a TMA store reads them).
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
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
