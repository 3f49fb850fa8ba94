// The crossover model that hands EmulatedFP32 to SGEMM where the split's
// memory traffic costs more than the tensor cores save.
#include <gtest/gtest.h>

#include <cmath>

#include "egemm/model/crossover.hpp"

namespace egemm::model {
namespace {

// An H100 as the CUDA backend describes it: 132 SMs at 1980 MHz, 128 FP32
// lanes, 77% SGEMM efficiency; HBM3 at 2619 MHz on a 5120-bit bus; the
// mma.sync kernel's 1.68x.
CrossoverModel h100() {
  CrossoverModel d;
  d.sgemm_flop_per_s = 132 * 1.98e9 * 128 * 2 * 0.77;
  d.memory_bytes_per_s = 2 * 2.619e9 * 5120 / 8;
  d.emulation_speedup = 1.68;
  return d;
}

TEST(CrossoverModel, TheCrossoverSizeIsWhereBothTimesMeet) {
  const CrossoverModel d = h100();
  const double h = crossover_size(d);
  EXPECT_NEAR(h, 302.0, 3.0);  // 8 R s / ((s - 1) BW) with the figures above
  // Square m = n = 2h has m n / (m + n) = h: the two times agree there.
  const index_t n = static_cast<index_t>(std::lround(2 * h));
  EXPECT_NEAR(emulation_seconds(d, n, n, 4096) / sgemm_seconds(d, n, n, 4096), 1.0, 0.01);
}

TEST(CrossoverModel, DependsOnMAndNButNotOnK) {
  const CrossoverModel d = h100();
  for (index_t k : {16, 128, 4096, 65536}) {
    EXPECT_TRUE(emulation_pays(d, 8192, 8192, k)) << k;
    EXPECT_TRUE(emulation_pays(d, 1024, 1024, k)) << k;  // the one-wave rule decides there, not this model
    EXPECT_FALSE(emulation_pays(d, 64, 32768, k)) << k;  // the kMeans distance gemm: 0.4x SGEMM measured
    EXPECT_FALSE(emulation_pays(d, 32768, 64, k)) << k;
    EXPECT_FALSE(emulation_pays(d, 512, 512, k)) << k;
  }
}

TEST(CrossoverModel, ANoFasterKernelNeverPaysAndEmptyProblemsNeverDo) {
  CrossoverModel d = h100();
  EXPECT_FALSE(emulation_pays(d, 0, 4096, 4096));
  EXPECT_FALSE(emulation_pays(d, 4096, 4096, 0));
  d.emulation_speedup = 1.0;
  EXPECT_TRUE(std::isinf(crossover_size(d)));
  EXPECT_FALSE(emulation_pays(d, 65536, 65536, 65536));
}

TEST(CrossoverModel, AFasterKernelOrMoreBandwidthMovesTheCrossoverDown) {
  CrossoverModel d = h100();
  const double base = crossover_size(d);
  d.emulation_speedup = 3.0;
  EXPECT_LT(crossover_size(d), base);
  d = h100();
  d.memory_bytes_per_s *= 2;
  EXPECT_NEAR(crossover_size(d), base / 2, 1e-9 * base);
}

}  // namespace
}  // namespace egemm::model
