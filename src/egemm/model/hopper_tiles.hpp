// Which block tile and ring depth the Hopper (TMA + wgmma) kernel runs: the
// EGEMM-TC paper's analytic model (section 6) redone for this hardware.
//
// The paper sized tiles from register and shared-memory capacity and the
// ratio of tensor-core work to memory traffic. On Hopper the same questions
// are asked of a warp-specialised kernel: a producer warpgroup streams
// k-tiles of 64 into a ring of `stages` buffers, bm / 64 consumer
// warpgroups each own a 64 x bn part of C in wgmma accumulators.
//
//  fits     : shared memory (the ring and the epilogue's buffers) and
//             registers (every consumer thread holds `sums` accumulators of
//             bn / 2 floats after setmaxnreg)
//  k-tile   : the slowest of the tensor cores (products x 2 bm bn 64 flops at
//             the SM's share of the measured FP16 rate), L2 -> shared memory
//             (pieces x (bm + bn / cluster) x 128 bytes: a cluster pair
//             multicasts op(B), each block loading half), and shared memory -> tensor
//             cores (each m64nNk16 wgmma reads 2 KiB of A and 32 N bytes of B)
//  ring     : a stage goes back to the producer once the next k-tile's
//             first wgmma group is done (the folded main term; with one
//             group, as the next k-tile starts). The refill then needs the
//             load latency plus its bytes at the SM's share of L2 bandwidth,
//             while stages - 1 k-tiles of work (counted from that group's
//             start) remain: a shallow ring paces the loop at
//             (latency + transfer + first group) / (stages - 1) per k-tile
//  tile     : k-tiles x that + the epilogue: each consumer thread unscales
//             and stages its bn / 2 entries for TMA stores at a measured
//             cost per entry (no faster than C at the SM's share of DRAM
//             bandwidth); two blocks sharing an SM run their epilogues side
//             by side
//  call     : the busiest SM's tiles (persistent blocks take tiles in turn;
//             pairs of m-tiles in a cluster, as many pairs as the GPU's GPCs
//             place at once) + one load latency to fill the ring. A last,
//             partial round with a busy share f of the slots takes
//             max(f, capped clock / free clock) of a round: its few SMs run
//             faster than the power cap lets a full GPU run
//  tail     : or, where it is faster, the whole rounds + an equal share of
//             the last partial round's k-tiles per slot (stream-K on the
//             tail, egemm/model/stream_k_tail.hpp) + its partial sums written
//             and read back at L2 bandwidth + a second launch that adds them
// Resources come from the device's properties, rates from measurements
// (backends/cuda/sm90/hopper_resources.cu); the sweep that checks the model
// against every candidate is perf_tests/sm90_tiles.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "egemm/gemm_args.hpp"
#include "egemm/model/stream_k_tail.hpp"

namespace egemm::model {

// What the model knows of the GPU.
struct HopperResources {
  int sms = 0;
  int smem_per_sm = 0;         // bytes, shared by the blocks resident on an SM
  int smem_per_block = 0;      // bytes, one block's opt-in limit
  int registers_per_sm = 0;    // 32-bit registers
  double clock_hz = 0;
  double tensor_flop_per_s = 0;  // FP16 in, FP32 accumulate, whole GPU (measured)
  double l2_bytes_per_s = 0;     // L2 -> shared memory, whole GPU (measured)
  double dram_bytes_per_s = 0;
  double load_latency_s = 0;     // a TMA load's fixed latency, before its bytes stream in
  double epilogue_s_per_entry = 0;  // one consumer thread's cost per accumulator entry it writes (measured)
  int cluster_pairs = 0;            // clusters of two blocks the GPU holds at once (0: sms / 2)
  double launch_gap_s = 0;          // a kernel launched right after another on the same stream starts this much later
  // The SM clock while the kernel fills the GPU, over the clock when few SMs
  // are busy: a full GPU runs at its power cap (H100: 700 W, ~1560 of 1980
  // MHz), a partial round's busy share of the SMs below it. 1: no cap.
  double capped_clock_ratio = 1.0;
};

// The policy's shape as the kernel sees it.
struct EmulationShape {
  int pieces;        // pieces per operand (FP16 hi, lo; Int8Slices' three digits)
  int products;      // piece products per k-tile, in FP16 products' time (an INT8 one takes half)
  int sums;          // 64 x bn accumulators per consumer warpgroup (with the fold's per-k-tile sum)
  bool folds_main;   // the main term is its own wgmma group, waited for before the others finish
};

// One configuration of the kernel.
struct HopperTile {
  const char* name;
  int bm, bn;         // block tile of C: bm / 64 consumer warpgroups of 64 x bn
  int stages;         // shared-memory ring depth, k-tiles of 64
  int blocks_per_sm;  // resident blocks per SM (two share its tensor cores)
  int cluster = 1;    // 2: blocks on neighbouring m-tiles share op(B), each loading half for both (TMA multicast)
  int row_bytes = 128;  // bytes of k a k-tile row holds (the swizzle span): 64 for Int8Slices' three pieces
};

inline constexpr int hopper_bk = 64;                // a k-tile: one 128-byte row of FP16
inline constexpr int hopper_smem_alignment = 1024;  // the 128B swizzle's atom
inline constexpr int hopper_smem_reserved = 1024;   // per block, taken by the driver
inline constexpr int hopper_smem_bytes_per_clock = 128;

constexpr int consumers(const HopperTile& t) { return t.bm / 64; }
constexpr int threads(const HopperTile& t) { return 128 * (1 + consumers(t)); }
constexpr int stage_bytes(const HopperTile& t, int pieces) { return pieces * (t.bm + t.bn) * t.row_bytes; }
// The staged epilogue (C through shared memory and TMA stores): each
// consumer warpgroup fills buffers of 64 rows x 32 columns of FP32 (8 KiB)
// in turn, two so that one fills while the TMA unit reads the other; one
// where two blocks share an SM (two would not fit beside both rings).
inline constexpr int hopper_epilogue_cols = 32;
inline constexpr int hopper_epilogue_buffer_bytes = 64 * hopper_epilogue_cols * 4;
constexpr int epilogue_buffers(const HopperTile& t) { return t.blocks_per_sm > 1 ? 1 : 2; }
constexpr int epilogue_bytes(const HopperTile& t) {
  return consumers(t) * epilogue_buffers(t) * hopper_epilogue_buffer_bytes;
}
// The ring, the epilogue's buffers, the ring's full and empty mbarriers, and
// slack to align it to 1 KiB.
constexpr int smem_bytes(const HopperTile& t, int pieces) {
  return hopper_smem_alignment + t.stages * stage_bytes(t, pieces) + epilogue_bytes(t) + 2 * t.stages * 8;
}

// Registers. At launch every thread gets 64K / (threads x blocks) (ptxas
// takes __launch_bounds__' limit when the kernel uses setmaxnreg), rounded
// down to 8; the producer then gives all but `producer_registers` back and
// the consumers take them.
constexpr int launch_registers(const HopperTile& t, int registers_per_sm = 65536) {
  const int r = registers_per_sm / (threads(t) * t.blocks_per_sm);
  return std::min(r, 255) / 8 * 8;
}
constexpr int producer_registers(const HopperTile& t) { return t.blocks_per_sm > 1 ? 24 : 40; }
constexpr int consumer_registers(const HopperTile& t, int registers_per_sm = 65536) {
  const int pool = launch_registers(t, registers_per_sm) * threads(t) - producer_registers(t) * 128;
  return std::min(pool / (128 * consumers(t)) / 8 * 8, 240);
}
constexpr int accumulator_registers(const HopperTile& t, const EmulationShape& s) { return s.sums * t.bn / 2; }
// Descriptors, ring cursor, loop state and the epilogue's temporaries.
inline constexpr int consumer_register_overhead = 32;

// Whether `t` runs on `r` for shape `s`; if not, why.
inline bool fits(const HopperResources& r, const HopperTile& t, const EmulationShape& s, std::string* why = nullptr) {
  auto no = [&](std::string reason) {
    if (why != nullptr) *why = std::move(reason);
    return false;
  };
  if (t.bm % 64 != 0 || (t.bn != 64 && t.bn != 128) || t.stages < 2 || t.blocks_per_sm < 1 ||
      (t.cluster != 1 && t.cluster != 2))
    return no("not a tile the kernel has");
  const int smem = smem_bytes(t, s.pieces);
  if (smem > r.smem_per_block) return no("ring of " + std::to_string(smem) + " bytes > the block limit");
  if (t.blocks_per_sm * (smem + hopper_smem_reserved) > r.smem_per_sm)
    return no(std::to_string(t.blocks_per_sm) + " rings do not fit one SM's shared memory");
  if (consumer_registers(t, r.registers_per_sm) < accumulator_registers(t, s) + consumer_register_overhead)
    return no(std::to_string(accumulator_registers(t, s)) + " accumulator registers need more than the " +
              std::to_string(consumer_registers(t, r.registers_per_sm)) + " a consumer gets");
  return true;
}

struct HopperPrediction {
  double seconds = 0;      // the kernel, split excluded
  double k_tile_s = 0;     // one block's k-tile, with the SM shared as configured
  const char* limit = "";  // what sets the k-tile time
  index_t tiles = 0;
  index_t tiles_per_sm = 0;  // the busiest SM's
  bool splits_tail = false;  // the last partial round is spread by k over every slot (stream-K)
};

// Whether predict may price the stream-K tail (and choose it where it is faster).
enum class Tail { whole_tiles, split_when_faster };

inline HopperPrediction predict(const HopperResources& r, const HopperTile& t, const EmulationShape& s, index_t m,
                                index_t n, index_t k, Tail tail = Tail::whole_tiles) {
  auto round_up = [](index_t x, index_t q) { return (x + q - 1) / q * q; };
  const index_t rows = round_up(m, 128), cols = round_up(n, 128), depth = round_up(k, hopper_bk);
  HopperPrediction p;
  const index_t tiles_m = (rows / t.bm + t.cluster - 1) / t.cluster * t.cluster;  // whole pairs
  p.tiles = tiles_m * (cols / t.bn);
  // Work items and the slots that take them: blocks, or pairs of them on the pairs of SMs the GPCs can form.
  const index_t work = p.tiles / t.cluster;
  const index_t slots = t.cluster == 1 ? static_cast<index_t>(r.sms) * t.blocks_per_sm
                        : r.cluster_pairs > 0 ? std::min(r.cluster_pairs, r.sms / 2)
                                              : r.sms / 2;
  p.tiles_per_sm = t.cluster == 1 ? (p.tiles + r.sms - 1) / r.sms : (work + slots - 1) / slots;
  // Whole rounds of the busiest SM, and the busy share of the last, partial one.
  const index_t rounds = t.cluster == 1 ? p.tiles / r.sms : work / slots;
  const double partial = t.cluster == 1 ? static_cast<double>(p.tiles % r.sms) / r.sms
                                        : static_cast<double>(work % slots) / static_cast<double>(slots);
  const double share = t.blocks_per_sm;  // blocks competing for one SM
  const double tensor = share * s.products * 2.0 * t.bm * t.bn * hopper_bk / (r.tensor_flop_per_s / r.sms);
  // A k-tile of 64 values: rows of 128 bytes (FP16), 64 (INT8 digits).
  const double l2 =
      share * s.pieces * (t.bm + static_cast<double>(t.bn) / t.cluster) * t.row_bytes / (r.l2_bytes_per_s / r.sms);
  const double wgmma_bytes = 2048.0 + 32.0 * t.bn;  // per m64nNk16: A 64 x 16, B N x 16
  const double smem = share * s.products * consumers(t) * (hopper_bk / 16) * wgmma_bytes /
                      (hopper_smem_bytes_per_clock * r.clock_hz);
  p.k_tile_s = tensor;
  p.limit = "tensor cores";
  if (l2 > p.k_tile_s) p.k_tile_s = l2, p.limit = "L2 bandwidth";
  if (smem > p.k_tile_s) p.k_tile_s = smem, p.limit = "shared-memory bandwidth";
  const double first_group = s.folds_main ? tensor / s.products : 0.0;
  const double refill = (r.load_latency_s + l2 + first_group) / (t.stages - 1);
  if (refill > p.k_tile_s) p.k_tile_s = refill, p.limit = "refill (ring too shallow)";
  // Per tile at the SM's full rate: blocks sharing an SM each take `share`
  // times as long but finish `share` tiles together.
  const double k_tiles = static_cast<double>(depth / hopper_bk);
  const double c_write = 4.0 * t.bm * t.bn / (r.dram_bytes_per_s / r.sms);
  const double epilogue = std::max(c_write, t.bn / 2 * r.epilogue_s_per_entry) / share;
  const double tile = k_tiles * p.k_tile_s / share + epilogue;
  const double last_round = partial > 0 ? std::max(partial, r.capped_clock_ratio) : 0.0;
  p.seconds = (static_cast<double>(rounds) + last_round) * tile + r.load_latency_s;
  if (tail == Tail::whole_tiles) return p;

  // A slot takes share x tile per tile (blocks sharing an SM take turns at its rate).
  const StreamKTail plan = StreamKTail::split_rest(static_cast<int>(work), static_cast<int>(slots),
                                                   static_cast<int>(k_tiles));
  if (!plan.splits()) return p;
  const double partial_bytes = static_cast<double>(plan.rest() + slots) * t.cluster * t.bm * t.bn *
                               (s.sums - (s.folds_main ? 1 : 0)) * 4.0;
  const double split = static_cast<double>(plan.whole / slots) * share * tile + plan.share * p.k_tile_s +
                       2 * partial_bytes / r.l2_bytes_per_s + r.launch_gap_s + r.load_latency_s;
  if (split < p.seconds) p.seconds = split, p.splits_tail = true;
  return p;
}

// The fastest candidate that fits (index into `candidates`), or -1 if none
// does; each priced with the stream-K tail where that is faster, as it runs.
template <std::size_t N>
int pick(const HopperResources& r, const HopperTile (&candidates)[N], const EmulationShape& s, index_t m, index_t n,
         index_t k) {
  int best = -1;
  double best_seconds = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (!fits(r, candidates[i], s)) continue;
    const double seconds = predict(r, candidates[i], s, m, n, k, Tail::split_when_faster).seconds;
    if (best < 0 || seconds < best_seconds) best = static_cast<int>(i), best_seconds = seconds;
  }
  return best;
}

}  // namespace egemm::model
