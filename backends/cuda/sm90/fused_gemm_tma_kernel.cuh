// The fused gemm on Hopper (sm_90a), from named pieces, each in its file:
//   Sm90Tile              sm90_tile.cuh: block tile, k-tile, warpgroups, stage ring, register split
//   StageRing             stage_ring.cuh: where stage s's pieces and its two mbarriers live in
//                         shared memory; the cursor that walks it; a stage's release
//   TileSchedule          tile_schedule.cuh: persistent blocks take whole tiles, then their
//                         share of the stream-K tail
//   producer              tma_producer.cuh: one thread of warpgroup 0 streams k-tiles in by TMA
//   WarpgroupAccumulators warpgroup_accumulators.cuh: a consumer warpgroup's 64 x bn part of C,
//                         every product term as wgmmas from shared memory, the per-k-tile fold
//                         (WarpgroupIntegerSums, warpgroup_integer_sums.cuh: Int8Slices' exact
//                         int32 sums of INT8 digit products)
//   epilogue              consumer_epilogue.cuh: combine accumulators, undo the scaling,
//                         alpha/beta (strip_epilogue.cuh, shared with the mma.sync kernel),
//                         staged 32 columns at a time in shared memory and stored by TMA
//                         (StagedC), or written from registers
//   stream-K partials     stream_k_partials.cuh: the last partial wave's tiles spread by k over
//                         every slot, partial sums to global memory, added by
//                         stream_k_fixup_kernel (egemm/model/stream_k_tail.hpp)
// This file composes them into the kernel. The same policy traits as the
// mma.sync kernel (fused_gemm_kernel.cuh) decide pieces, terms, accumulators
// and the fold; FP16, TF32 or INT8 pieces (the staged C epilogue with FP16 pieces only).
#pragma once

#include <cuda.h>

#include <cstdint>

#include "backends/cuda/common/fused_gemm_params.hpp"
#include "backends/cuda/route/emulation_path.hpp"
#include "backends/cuda/runtime/dependent_launch.hpp"
#include "backends/cuda/sm90/consumer_epilogue.cuh"
#include "backends/cuda/sm90/mbarrier.hpp"
#include "backends/cuda/sm90/sm90_tile.cuh"
#include "backends/cuda/sm90/stage_ring.cuh"
#include "backends/cuda/sm90/stream_k_partials.cuh"
#include "backends/cuda/sm90/tile_schedule.cuh"
#include "backends/cuda/sm90/tma_producer.cuh"
#include "backends/cuda/sm90/warpgroup_accumulators.cuh"
#include "backends/cuda/sm90/wgmma.hpp"

namespace egemm::cuda::hopper {

template <class Policy, class Tile>
__global__ void __launch_bounds__(Tile::threads, Tile::blocks_per_sm)
    tma_wgmma_gemm_kernel(const __grid_constant__ CUtensorMap a_hi, const __grid_constant__ CUtensorMap a_lo,
                           const __grid_constant__ CUtensorMap a_lowest, const __grid_constant__ CUtensorMap b_hi,
                           const __grid_constant__ CUtensorMap b_lo, const __grid_constant__ CUtensorMap b_lowest,
                           const __grid_constant__ CUtensorMap c_map, const FusedGemmParams p, const StreamKArgs sk) {
  // Only the sm_90a pass has wgmma/setmaxnreg; the sm_80 pass compiles an
  // empty body that the host never launches (fused_gemm_tma.cu checks the
  // binary's version first).
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  wait_for_previous_kernel();  // the split's pieces, the path word
  allow_next_kernel();         // the next kernel's blocks take SMs as this one's leave
  if (!path_selected(p.path_word, p.path)) return;  // EmulatedFP32 chose another path on the device
  extern __shared__ unsigned char smem_raw[];
  const StageRing<Tile> ring{reinterpret_cast<unsigned char*>((reinterpret_cast<std::uintptr_t>(smem_raw) + 1023) &
                                                              ~static_cast<std::uintptr_t>(1023))};
  const int warpgroup = threadIdx.x / 128, thread = threadIdx.x % 128;
  // A cluster takes pairs of m-tiles (with an odd count the last pair's
  // second block reads zeros past op(A) and writes nothing).
  const TileSchedule<Tile> schedule(p, sk.tail, Tile::cluster > 1 ? static_cast<int>(cluster_cta_rank()) : 0);
  const int k_tiles = static_cast<int>(p.k_pad / Tile::bk);
  const bool staged_c = Tile::stages_c && p.c_through_tma;  // C through StagedC, else from registers

  if (threadIdx.x == 0) {
    for (int s = 0; s < Tile::stages; ++s) {
      mbarrier_init(ring.full(s), 1);                    // the producer's arrive_expect_tx
      mbarrier_init(ring.empty(s), 4 * Tile::consumers * Tile::cluster);  // per consumer warp of the cluster
    }
    mbarrier_init_fence();
  }
  const PieceMaps maps{{&a_hi, &a_lo, &a_lowest}, {&b_hi, &b_lo, &b_lowest}};
  if (threadIdx.x == 32) {
    for (int piece = 0; piece < Tile::pieces; ++piece) {
      tma_prefetch_descriptor(maps.a[piece]);
      tma_prefetch_descriptor(maps.b[piece]);
    }
    if (staged_c) tma_prefetch_descriptor(&c_map);
  }
  if constexpr (Tile::cluster > 1)
    cluster_sync();  // the peer's barriers are initialised before any multicast or remote arrival
  else
    __syncthreads();

  if (warpgroup == 0) {
    setmaxnreg_dec<Tile::producer_registers>();
    if (threadIdx.x == 0) producer(ring, maps, schedule, k_tiles);
    if constexpr (Tile::cluster > 1) {
      __syncwarp();
      cluster_sync();  // matches the consumers' below
    }
    return;
  }
  setmaxnreg_inc<Tile::consumer_registers>();
  const int consumer = warpgroup - 1;
  ConsumerSums<Policy, Tile> acc;
  RingCursor at;
  for (auto s = schedule.first(k_tiles); s.k_begin < s.k_end; s = schedule.next(s, k_tiles)) {
    acc.zero_main();
    const TileCoord tile = schedule[s.order];
    const index_t row0 = static_cast<index_t>(tile.m) * Tile::bm + consumer * 64;
    const index_t col0 = static_cast<index_t>(tile.n) * Tile::bn;
    if (s.part < 0) prefetch_epilogue_data<Policy, Tile>(p, row0, col0, thread);
    int previous = 0;
    for (int kt = s.k_begin; kt < s.k_end; ++kt) {
      mbarrier_wait(ring.full(at.stage), at.phase);
      std::uint32_t a[max_pieces], b[max_pieces];
#pragma unroll
      for (int piece = 0; piece < max_pieces; ++piece) {
        const int q = piece < Tile::pieces ? piece : 0;
        a[piece] = smem_u32(ring.a(at.stage, q)) + consumer * 64 * Tile::row_bytes;  // this warpgroup's 64 rows
        b[piece] = smem_u32(ring.b(at.stage, q));
      }
      acc.k_tile(a, b, kt - s.k_begin, s.k_end - s.k_begin);
      // k-tile kt - 1's wgmmas have completed: its stage goes back to the producer.
      if (kt > s.k_begin) release(ring, previous, thread);
      previous = at.stage;
      at.advance<Tile::stages>();
    }
    wgmma_wait<0>();
    acc.fence_all();
    release(ring, previous, thread);  // the producer may load the next tile's k-tiles meanwhile
    if (s.part < 0 && staged_c)
      epilogue<Policy, Tile>(acc, p, row0, col0, thread, StagedC<Tile>(ring, &c_map, consumer, thread, row0, col0));
    else if (s.part < 0)
      epilogue<Policy, Tile>(acc, p, row0, col0, thread);
    else
      store_partial(acc, partial_sums<Policy, Tile>(sk, 2 * schedule.slot + s.part, schedule.rank, consumer), thread);
  }
  if (staged_c && thread == 0) bulk_wait<0>();  // C's last boxes are written out
  if constexpr (Tile::cluster > 1) cluster_sync();  // the peer's last arrivals on our barriers are in
#elif defined(__CUDA_ARCH__)
  __trap();  // code without sm_90a's features: the host's check (kernel_images.hpp) never launches it
#endif
}

}  // namespace egemm::cuda::hopper
