// The bits of SplitOperand::outlier_state, plain C++ so that host tests can run the outlier pass's item logic.
#pragma once

#include <cstdint>

namespace egemm::cuda {

// SplitOperand::outlier_state: the row takes the outlier route (its low bits
// count its candidates, at most numerics::outlier_slots then).
inline constexpr std::uint32_t outlier_routed = 0x80000000u;
inline constexpr std::uint32_t outlier_count_mask = 0x7fffffffu;

}  // namespace egemm::cuda
