// The analytic model that sizes the Hopper kernel's tile and ring: what fits
// an H100's shared memory and registers, and how the predicted time answers
// to the hardware's rates.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "egemm/model/hopper_tiles.hpp"

namespace egemm::model {
namespace {

// An H100 SXM as the backend describes it (backends/cuda/sm90/hopper_resources.cu).
HopperResources h100() {
  HopperResources r;
  r.sms = 132;
  r.smem_per_sm = 228 * 1024;
  r.smem_per_block = 227 * 1024;
  r.registers_per_sm = 65536;
  r.clock_hz = 1.98e9;
  r.tensor_flop_per_s = 750e12;
  r.l2_bytes_per_s = 7.0e12;
  r.dram_bytes_per_s = 3.35e12;
  r.load_latency_s = 0.12e-6;
  return r;
}

constexpr EmulationShape emulated_fp32{2, 3, 3, true};

TEST(HopperTileModel, RegisterSplitMatchesTheKernelsSetmaxnreg) {
  // 384 threads: 168 at launch (ptxas), producer 40, consumers 232 (the SASS shows 0xe8).
  constexpr HopperTile t{"128x128x3", 128, 128, 3, 1};
  static_assert(launch_registers(t) == 168 && producer_registers(t) == 40 && consumer_registers(t) == 232);
  // Two blocks of 256 threads: 128 at launch, 24 and 232.
  constexpr HopperTile pair{"64x128x2/2", 64, 128, 2, 2};
  static_assert(launch_registers(pair) == 128 && producer_registers(pair) == 24 && consumer_registers(pair) == 232);
  EXPECT_EQ(accumulator_registers(t, emulated_fp32), 192);
}

TEST(HopperTileModel, FitsChecksSharedMemoryAndRegisters) {
  const HopperResources r = h100();
  std::string why;
  EXPECT_TRUE(fits(r, {"", 128, 128, 3, 1}, emulated_fp32, &why)) << why;
  EXPECT_FALSE(fits(r, {"", 128, 128, 4, 1}, emulated_fp32, &why));  // 4 x 64 KiB
  EXPECT_NE(why.find("block limit"), std::string::npos) << why;
  EXPECT_FALSE(fits(r, {"", 64, 128, 3, 2}, emulated_fp32, &why));  // two rings of 3 x 48 KiB
  EXPECT_NE(why.find("one SM"), std::string::npos) << why;
  // Four consumer warpgroups: 96 registers at launch leave 110 a consumer, short of 3 x 32 + overhead.
  EXPECT_FALSE(fits(r, {"", 256, 64, 2, 1}, emulated_fp32, &why));
  EXPECT_NE(why.find("accumulator registers"), std::string::npos) << why;
  // Half (one piece, one sum) fits 6 stages of 32 KiB beside the epilogue's 2 x 2 x 8 KiB, not 7.
  EXPECT_TRUE(fits(r, {"", 128, 128, 6, 1}, {1, 1, 1, false}, &why)) << why;
  EXPECT_FALSE(fits(r, {"", 128, 128, 7, 1}, {1, 1, 1, false}, &why));
  EXPECT_NE(why.find("block limit"), std::string::npos) << why;
  // Two blocks of 64 x 128 x 2 share an SM with one 8 KiB epilogue buffer each (two would not fit).
  EXPECT_EQ(epilogue_bytes({"", 64, 128, 2, 2}), 8 * 1024);
  EXPECT_TRUE(fits(r, {"", 64, 128, 2, 2}, emulated_fp32, &why)) << why;
  EXPECT_FALSE(fits(r, {"", 128, 256, 2, 1}, emulated_fp32, &why));  // no m64n256 wgmma in the kernel
}

TEST(HopperTileModel, DeepProductsRunAtTheBindingRate) {
  const HopperResources r = h100();
  const HopperTile t{"", 128, 128, 3, 1};
  const HopperPrediction p = predict(r, t, emulated_fp32, 8192, 8192, 8192);
  EXPECT_EQ(p.tiles, 64 * 64);
  EXPECT_EQ(p.tiles_per_sm, 32);  // 4096 tiles on 132 SMs: 31.03 -> 32 rounds
  // Tensor cores: 3 x 2 x 128 x 128 x 64 flops at 750/132 TFLOP/s per SM = 1.11 us;
  // L2: 2 x 256 x 128 bytes at 7/132 TB/s per SM = 1.24 us: L2 sets the pace.
  EXPECT_STREQ(p.limit, "L2 bandwidth");
  EXPECT_NEAR(p.k_tile_s, 2 * 256 * 128 / (7.0e12 / 132), 1e-12);
  EXPECT_NEAR(p.seconds, 32 * (128 * p.k_tile_s + 4.0 * 128 * 128 / (3.35e12 / 132)) + r.load_latency_s, 1e-9);
  // With L2 to spare the tensor cores bind.
  HopperResources fast_l2 = r;
  fast_l2.l2_bytes_per_s = 20e12;
  EXPECT_STREQ(predict(fast_l2, t, emulated_fp32, 8192, 8192, 8192).limit, "tensor cores");
}

TEST(HopperTileModel, ShallowRingsWaitForTheirRefill) {
  // Two stages: k-tile i + 1's load starts when k-tile i's main term is done
  // and must arrive before the tensor cores run dry: latency + transfer + the
  // main term's third of the tensor work, per k-tile. Three stages hide it.
  const HopperResources r = h100();
  const HopperPrediction two = predict(r, {"", 128, 128, 2, 1}, emulated_fp32, 4096, 4096, 4096);
  const HopperPrediction three = predict(r, {"", 128, 128, 3, 1}, emulated_fp32, 4096, 4096, 4096);
  const double tensor = 3 * 2.0 * 128 * 128 * 64 / (750e12 / 132), l2 = 2 * 256 * 128 / (7.0e12 / 132);
  EXPECT_STREQ(two.limit, "refill (ring too shallow)");
  EXPECT_NEAR(two.k_tile_s, r.load_latency_s + l2 + tensor / 3, 1e-12);
  EXPECT_STREQ(three.limit, "L2 bandwidth");
  EXPECT_LT(three.seconds, two.seconds / 1.3);
  // Without a folded main term the stage returns as the next k-tile starts.
  const HopperPrediction one_group = predict(r, {"", 128, 128, 2, 1}, {2, 4, 2, false}, 4096, 4096, 4096);
  EXPECT_NEAR(one_group.k_tile_s, std::max(4 * 2.0 * 128 * 128 * 64 / (750e12 / 132), r.load_latency_s + l2), 1e-12);
}

TEST(HopperTileModel, PickPrefersFewerBytesPerFlopWhenL2Binds) {
  // At the H100's rates 128 x 128 moves 1 byte from L2 per 64 flops, 128 x 64 and 64 x 128 one per 43.
  const HopperTile candidates[] = {{"128x64x4", 128, 64, 4, 1}, {"128x128x3", 128, 128, 3, 1}, {"64x128x2/2", 64, 128, 2, 2}};
  EXPECT_EQ(pick(h100(), candidates, emulated_fp32, 8192, 8192, 8192), 1);
  EXPECT_EQ(pick(h100(), candidates, emulated_fp32, 4096, 4096, 4096), 1);
}

TEST(HopperTileModel, PickWeighsRoundsWhenTensorCoresBind) {
  HopperResources r = h100();
  r.l2_bytes_per_s = 50e12;
  const HopperTile candidates[] = {{"128x128x3", 128, 128, 3, 1}, {"128x64x4", 128, 64, 4, 1}};
  // 1024^2: 64 big tiles leave 68 SMs idle; 128 small ones take one round of half the time.
  EXPECT_EQ(pick(r, candidates, emulated_fp32, 1024, 1024, 4096), 1);
  // 4224 = 33 x 128: 1089 big tiles = 8.25 rounds -> 9; 2178 small = 16.5 -> 17 rounds of half the time.
  EXPECT_EQ(pick(r, candidates, emulated_fp32, 4224, 4224, 4096), 1);
  const HopperPrediction big = predict(r, candidates[0], emulated_fp32, 4224, 4224, 4096);
  const HopperPrediction small = predict(r, candidates[1], emulated_fp32, 4224, 4224, 4096);
  EXPECT_EQ(big.tiles_per_sm, 9);
  EXPECT_EQ(small.tiles_per_sm, 17);
  EXPECT_NEAR(small.seconds / big.seconds, 8.5 / 9, 0.01);
}

TEST(HopperTileModel, ClusterPairsLoadHalfOfOpBEach) {
  const HopperResources r = h100();
  const HopperTile single{"128x128x3", 128, 128, 3, 1}, pair{"128x128x3c2", 128, 128, 3, 1, 2};
  const HopperPrediction one = predict(r, single, emulated_fp32, 8192, 8192, 8192);
  const HopperPrediction two = predict(r, pair, emulated_fp32, 8192, 8192, 8192);
  // 2 pieces x (128 + 64) rows x 128 bytes from L2: 0.93 us, under the tensor cores' 1.11 us.
  EXPECT_STREQ(two.limit, "tensor cores");
  EXPECT_LT(two.seconds, one.seconds);
  const HopperTile candidates[] = {single, pair};
  EXPECT_EQ(pick(r, candidates, emulated_fp32, 8192, 8192, 8192), 1);
  // Three m-tiles make two pairs: the last pair's second block has no rows but takes a slot.
  EXPECT_EQ(predict(r, pair, emulated_fp32, 384, 8192, 1024).tiles, 4 * 64);
  EXPECT_FALSE(fits(r, {"", 128, 128, 3, 1, 4}, emulated_fp32));  // pairs at most
}

TEST(HopperTileModel, PairsOnlyWhereTheGpcsPlaceThem) {
  HopperResources r = h100();
  const HopperTile pair{"128x128x3c2", 128, 128, 3, 1, 2};
  const HopperPrediction all = predict(r, pair, emulated_fp32, 8192, 8192, 8192);
  EXPECT_EQ(all.tiles_per_sm, 32);  // 2048 pairs of tiles on 66 pairs of SMs: 31.03 -> 32 rounds
  r.cluster_pairs = 60;             // a GPU whose GPCs pair up only 120 of its SMs
  const HopperPrediction fewer = predict(r, pair, emulated_fp32, 8192, 8192, 8192);
  EXPECT_EQ(fewer.tiles_per_sm, 35);  // 2048 / 60 = 34.1
  EXPECT_GT(fewer.seconds, all.seconds * 34 / 32);
  // Single blocks ignore it.
  EXPECT_EQ(predict(r, {"128x128x3", 128, 128, 3, 1}, emulated_fp32, 8192, 8192, 8192).tiles_per_sm, 32);
}

TEST(HopperTileModel, EpilogueCostsEachConsumerThreadsEntries) {
  HopperResources r = h100();
  r.epilogue_s_per_entry = 0.057e-6;  // the backend's figure (hopper_resources.cu)
  // One k-tile a tile: the tile is its epilogue, bn / 2 entries per consumer
  // thread (perf_tests/sm90_tiles measures 4.8 us for 128 x 128, the staged epilogue).
  const HopperTile wide{"128x128x3", 128, 128, 3, 1}, narrow{"128x64x3", 128, 64, 3, 1};
  const HopperPrediction w = predict(r, wide, emulated_fp32, 8192, 8192, 64);
  const HopperPrediction n = predict(r, narrow, emulated_fp32, 8192, 8192, 64);
  EXPECT_NEAR(w.seconds, 32 * (w.k_tile_s + 64 * 0.057e-6) + r.load_latency_s, 1e-9);
  EXPECT_NEAR(n.seconds, 63 * (n.k_tile_s + 32 * 0.057e-6) + r.load_latency_s, 1e-9);
  // Two blocks on an SM write their entries side by side: half the time per tile.
  const HopperTile shared{"64x128x2/2", 64, 128, 2, 2};
  const HopperPrediction sh = predict(r, shared, emulated_fp32, 8192, 8192, 64);
  EXPECT_NEAR(sh.seconds, sh.tiles_per_sm * (sh.k_tile_s / 2 + 64 * 0.057e-6 / 2) + r.load_latency_s, 1e-9);
}

TEST(HopperTileModel, TheLastPartialRoundSplitsByKWhereThatIsFaster) {
  HopperResources r = h100();
  r.cluster_pairs = 66;
  r.epilogue_s_per_entry = 0.057e-6;
  r.launch_gap_s = 3e-6;
  r.capped_clock_ratio = 0.79;
  const HopperTile pair{"128x128x3c2", 128, 128, 3, 1, 2};
  // 8192^3: 2048 pair tiles on 66 pairs, 31 whole rounds and 2 tiles over. The
  // two alone run at the free clock (0.79 of a round); split, their 256
  // k-tiles go 4 to a slot.
  const HopperPrediction whole = predict(r, pair, emulated_fp32, 8192, 8192, 8192);
  const HopperPrediction split = predict(r, pair, emulated_fp32, 8192, 8192, 8192, Tail::split_when_faster);
  const double tile = 128 * whole.k_tile_s + 64 * 0.057e-6;
  EXPECT_FALSE(whole.splits_tail);
  EXPECT_NEAR(whole.seconds, 31.79 * tile + r.load_latency_s, 1e-9);
  ASSERT_TRUE(split.splits_tail);
  const double partials = (2 + 66) * 2 * 128 * 128 * 2 * 4.0;  // two sums per slot's share, written and read
  EXPECT_NEAR(split.seconds, 31 * tile + 4 * whole.k_tile_s + 2 * partials / 7.0e12 + 3e-6 + r.load_latency_s, 1e-9);
  // 4096^3: 512 pair tiles, 7 rounds and 50 tiles over: 76% of the slots busy,
  // near the cap already; the split would save little and pay the fixup.
  EXPECT_FALSE(predict(r, pair, emulated_fp32, 4096, 4096, 4096, Tail::split_when_faster).splits_tail);
  // 132 m-tiles of one n-tile: 66 pair tiles, one whole round; nothing to split.
  const HopperPrediction even = predict(r, pair, emulated_fp32, 132 * 128, 128, 8192, Tail::split_when_faster);
  EXPECT_FALSE(even.splits_tail);
  EXPECT_EQ(even.seconds, predict(r, pair, emulated_fp32, 132 * 128, 128, 8192).seconds);
  // One k-tile: a split would only add the fixup.
  EXPECT_FALSE(predict(r, pair, emulated_fp32, 8192, 8192, 64, Tail::split_when_faster).splits_tail);
}

TEST(HopperTileModel, NothingFitsATinyGpu) {
  HopperResources r = h100();
  r.smem_per_block = r.smem_per_sm = 48 * 1024;
  const HopperTile candidates[] = {{"128x128x3", 128, 128, 3, 1}, {"128x64x2", 128, 64, 2, 1}};
  EXPECT_EQ(pick(r, candidates, emulated_fp32, 4096, 4096, 4096), -1);
}

}  // namespace
}  // namespace egemm::model
