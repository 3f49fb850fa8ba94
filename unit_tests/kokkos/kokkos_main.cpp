// main() of the Kokkos tests. A CUDA Kokkos cannot initialise without a GPU
// (Kokkos::initialize throws or aborts), so where no GPU EGEMM can use is
// visible, Kokkos is left uninitialised and every test reports SKIPPED with
// the reason instead of the program dying.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "egemm/egemm.hpp"
#include "kokkos/kokkos_test_views.hpp"

namespace egemm::test {
namespace {
bool ready = false;
std::string skip_reason;
}  // namespace
bool kokkos_ready() { return ready; }
const std::string& kokkos_skip_reason() { return skip_reason; }
}  // namespace egemm::test

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // The tests' Views are small: keep EmulatedFP32 on the tensor cores rather
  // than its hand-off to SGEMM for a C that does not fill the GPU.
  setenv("EGEMM_SMALL_GEMM_FALLBACK", "0", 1);
#if defined(KOKKOS_ENABLE_CUDA)
  if (!egemm::cuda_available()) {
    egemm::test::skip_reason =
        "this Kokkos was built with CUDA and no sm_80+ GPU is visible: Kokkos is not initialised, GPU test skipped";
    std::printf("[ NOTE     ] %s\n", egemm::test::skip_reason.c_str());
    return RUN_ALL_TESTS();
  }
#endif
  Kokkos::initialize(argc, argv);
  egemm::test::ready = true;
  const int rc = RUN_ALL_TESTS();
  Kokkos::finalize();
  return rc;
}
