// The Views both case studies use: one point per row, in the default
// execution space (CUDA when Kokkos has it, else the host).
#pragma once

#include <Kokkos_Core.hpp>

namespace egemm::cases {

using Space = Kokkos::DefaultExecutionSpace;
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Space>;  // one point per row
using Vector = Kokkos::View<float*, Space>;
using Labels = Kokkos::View<int*, Space>;

// Seconds of one run: end to end, and the part inside KokkosBlas::gemm.
struct Timing {
  double total = 0, gemm = 0;
};

}  // namespace egemm::cases
