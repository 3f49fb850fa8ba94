// Shared-memory mbarriers (sm_90): how the TMA producer tells consumers a
// stage has landed (arrive + expected transaction bytes) and how consumers
// hand a stage back. Device code only; used inside the sm_90a guard.
#pragma once

#include <cstdint>

namespace egemm::cuda::hopper {

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, std::uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(arrivals) : "memory");
}

// Makes the initialised barriers visible to the async proxy (TMA) and the other threads.
__device__ __forceinline__ void mbarrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}

// The producer's arrival: this phase also waits for `bytes` of TMA transactions.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_u32(bar)), "r"(bytes)
               : "memory");
}

__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_u32(bar)) : "memory");
}

// Arrival on the barrier at the same offset in cluster CTA `cta` (mapa gives
// its shared::cluster address): a consumer hands a stage back to the peer
// whose producer multicasts into it. CTA-scope release, as CUTLASS's
// ClusterBarrier: the arrival publishes no data (the stage was only read, by
// wgmmas already waited for), and a cluster-scope release made every
// consumer warp wait on a memory barrier each k-tile (ncu: 8.4 of 20 cycles
// between issues; the cluster kernel ran at 0.67x the single-block one).
__device__ __forceinline__ void mbarrier_arrive_cluster(std::uint64_t* bar, std::uint32_t cta) {
  std::uint32_t remote = 0;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(smem_u32(bar)), "r"(cta));
  asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(remote) : "memory");
}

// Every thread of every CTA of the cluster (barrier init before any remote
// use; no CTA leaves while a peer may still arrive on its barriers).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

__device__ __forceinline__ std::uint32_t cluster_cta_rank() {
  std::uint32_t r = 0;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
}

// The 128 threads of one warpgroup meet at named barrier `Id` (1..15; 0 is
// __syncthreads): a consumer warpgroup syncs without the other warpgroups.
// The id is an immediate: with a register id ptxas reserves all 16 barriers,
// and two blocks could no longer share an SM.
template <int Id>
__device__ __forceinline__ void warpgroup_sync() {
  static_assert(Id >= 1 && Id < 16, "named barriers 1..15");
  asm volatile("bar.sync %0, 128;\n" ::"n"(Id) : "memory");
}

// Spins until the phase of parity `parity` has completed (try_wait suspends
// the thread for a while in hardware, so the loop does not hammer the barrier).
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, std::uint32_t parity) {
  const std::uint32_t addr = smem_u32(bar);
  std::uint32_t done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(addr), "r"(parity)
        : "memory");
  } while (!done);
}

}  // namespace egemm::cuda::hopper
