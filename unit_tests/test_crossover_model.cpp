// The crossover model that hands EmulatedFP32 to SGEMM where the split's
// memory traffic or the kernel's per-tile cost outweighs the tensor cores' gain.
#include <gtest/gtest.h>

#include <cmath>

#include "egemm/model/crossover.hpp"
#include "egemm/model/normwise_route.hpp"

namespace egemm::model {
namespace {

// An H100 as the CUDA backend describes it: 132 SMs at 1980 MHz, 128 FP32
// lanes, 77% SGEMM efficiency; HBM3 at 2619 MHz on a 5120-bit bus; the
// mma.sync kernel's s_inf = 1.9 and k0 = 165. The measured speedups below are
// the mma.sync kernel's against cuBLAS SGEMM (perf_tests/gemm_suite, case studies).
CrossoverModel h100() {
  CrossoverModel d;
  d.sgemm_flop_per_s = 132 * 1.98e9 * 128 * 2 * 0.77;
  d.memory_bytes_per_s = 2 * 2.619e9 * 5120 / 8;
  d.emulation_speedup = 1.9;
  d.depth_overhead = 165;
  return d;
}

TEST(CrossoverModel, TheCrossoverSizeIsWhereBothTimesMeet) {
  const CrossoverModel d = h100();
  for (index_t k : {256, 1024, 8192}) {
    const double h = crossover_size(d, k);
    ASSERT_TRUE(std::isfinite(h)) << k;
    // Square m = n = 2h has m n / (m + n) = h: the two times agree there.
    const index_t n = static_cast<index_t>(std::lround(2 * h));
    EXPECT_NEAR(emulation_seconds(d, n, n, k) / sgemm_seconds(d, n, n, k), 1.0, 0.01) << k;
  }
  EXPECT_NEAR(crossover_size(d, 8192), 265.5, 1.0);  // 8 R s / ((s - 1) BW), s = 1.9 * 8192 / 8357
}

TEST(CrossoverModel, ReproducesTheMeasurementsItWasBuiltFrom) {
  const CrossoverModel d = h100();
  auto speedup = [&](index_t m, index_t n, index_t k) { return sgemm_seconds(d, m, n, k) / emulation_seconds(d, m, n, k); };
  EXPECT_NEAR(speedup(65536, 4096, 128), 0.81, 0.01);  // the kNN distance gemm it was fitted to
  EXPECT_NEAR(speedup(4096, 4096, 4096), 1.55, 0.12);  // measured 1.50-1.55 (wave quantization not modelled)
  EXPECT_NEAR(speedup(8192, 8192, 8192), 1.76, 0.10);  // measured 1.71-1.84 (split included)
}

TEST(CrossoverModel, ShallowOrThinProblemsGoToSgemm) {
  const CrossoverModel d = h100();
  EXPECT_FALSE(emulation_pays(d, 65536, 4096, 128));  // kNN, k = 128: the tile's fixed cost dominates
  EXPECT_FALSE(emulation_pays(d, 8192, 8192, 64));
  EXPECT_FALSE(emulation_pays(d, 64, 32768, 4096));  // kMeans-like: 64 rows, split traffic dominates
  EXPECT_FALSE(emulation_pays(d, 32768, 64, 4096));
  EXPECT_FALSE(emulation_pays(d, 512, 512, 512));
  EXPECT_TRUE(emulation_pays(d, 8192, 8192, 8192));
  EXPECT_TRUE(emulation_pays(d, 2048, 2048, 2048));
  EXPECT_TRUE(emulation_pays(d, 16384, 4096, 4096));
  EXPECT_TRUE(emulation_pays(d, 1024, 1024, 1024));  // with full waves; the wave test below has its few tiles
}

TEST(CrossoverModel, WaveUtilisationCountsTheSlotsTheLastWaveLeavesIdle) {
  EXPECT_DOUBLE_EQ(wave_utilisation(132, 132), 1.0);
  EXPECT_DOUBLE_EQ(wave_utilisation(64, 132), 64.0 / 132.0);
  EXPECT_DOUBLE_EQ(wave_utilisation(133, 132), 133.0 / 264.0);
  EXPECT_DOUBLE_EQ(wave_utilisation(264, 132), 1.0);
  EXPECT_EQ(wave_utilisation(0, 132), 0.0);
  EXPECT_EQ(wave_utilisation(64, 0), 0.0);
}

// The Hopper kernel on an H200 (132 SMs, one 128 x 128 tile each, 4.8 TB/s)
// at the small shapes measured there, forced onto the tensor cores against
// cuBLAS SGEMM (queued calls): 1024^3 1.61x, 2048 x 512 x 2048 1.31x, 4096 x 4096 x 256 1.90x;
// 1024 x 1024 x 512 0.85x, 768^3 0.94x, 512^3 0.47x, 256 x 256 x 4096 0.41x.
TEST(CrossoverModel, FewTilesPayOnlyWhereDepthMakesUpForTheIdleSlots) {
  CrossoverModel d;
  d.sgemm_flop_per_s = 132 * 1.98e9 * 128 * 2 * 0.77;
  d.memory_bytes_per_s = 4.8e12;
  d.emulation_speedup = 3.9;
  d.depth_overhead = 525;
  const auto pays = [&](index_t m, index_t n, index_t k) {
    const index_t tiles = ((m + 127) / 128) * ((n + 127) / 128);
    return emulation_pays(d, m, n, k, wave_utilisation(tiles, 132));
  };
  EXPECT_TRUE(pays(1024, 1024, 1024));
  EXPECT_TRUE(pays(2048, 512, 2048));
  EXPECT_TRUE(pays(4096, 4096, 256));
  EXPECT_FALSE(pays(1024, 1024, 512));
  EXPECT_FALSE(pays(768, 768, 768));
  EXPECT_FALSE(pays(512, 512, 512));
  EXPECT_FALSE(pays(256, 256, 4096));
  EXPECT_FALSE(emulation_pays(d, 8192, 8192, 8192, 0.0));  // no tiles: nothing runs on the tensor cores
}

TEST(CrossoverModel, ANoFasterKernelNeverPaysAndEmptyProblemsNeverDo) {
  CrossoverModel d = h100();
  EXPECT_FALSE(emulation_pays(d, 0, 4096, 4096));
  EXPECT_FALSE(emulation_pays(d, 4096, 4096, 0));
  d.emulation_speedup = 1.0;
  EXPECT_TRUE(std::isinf(crossover_size(d, 65536)));
  EXPECT_FALSE(emulation_pays(d, 65536, 65536, 65536));
}

TEST(CrossoverModel, AFasterKernelOrMoreBandwidthMovesTheCrossoverDown) {
  CrossoverModel d = h100();
  const double base = crossover_size(d, 4096);
  d.emulation_speedup = 3.0;
  EXPECT_LT(crossover_size(d, 4096), base);
  d = h100();
  d.memory_bytes_per_s *= 2;
  EXPECT_NEAR(crossover_size(d, 4096), base / 2, 1e-9 * base);
  d = h100();
  EXPECT_LT(crossover_size(d, 8192), crossover_size(d, 512));  // deeper products amortise the tile's fixed cost
}

// NormwiseFP32's route on the GPU (model/normwise_route.hpp): where
// m n / (m + n) >= 2048 and m n k / (m + n) >= 2^23: 4096^3 and up, the
// skewed shapes from N = 4096, 8192 x 8192 x 2048; not 2048^3, nor wide
// and thin products (their column sums are large beside the gemm), nor
// shallow ones (the fixed costs).
TEST(NormwiseRouteModel, TheRoutePaysFromFourThousandCubed) {
  using model::normwise_route_pays;
  EXPECT_TRUE(normwise_route_pays(4096, 4096, 4096));
  EXPECT_FALSE(normwise_route_pays(4096, 4096, 4095));
  EXPECT_TRUE(normwise_route_pays(8192, 8192, 8192));
  EXPECT_TRUE(normwise_route_pays(16384, 16384, 16384));
  EXPECT_TRUE(normwise_route_pays(16384, 4096, 4096));
  EXPECT_TRUE(normwise_route_pays(4096, 4096, 8192));
  EXPECT_TRUE(normwise_route_pays(8192, 8192, 2048));
  EXPECT_FALSE(normwise_route_pays(8192, 8192, 1024));
  EXPECT_FALSE(normwise_route_pays(2048, 2048, 2048));
  EXPECT_FALSE(normwise_route_pays(2048, 2048, 65536));  // h = 1024, however deep
  EXPECT_FALSE(normwise_route_pays(8192, 2048, 2048));
  EXPECT_FALSE(normwise_route_pays(65536, 2047, 65536));  // h < 2047 for every m
  EXPECT_FALSE(normwise_route_pays(0, 8192, 8192));
}

}  // namespace
}  // namespace egemm::model
