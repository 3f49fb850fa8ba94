// Synthetic data for the case studies: Gaussian blobs, deterministic in the seed.
#pragma once

#include <cstdint>

#include "views.hpp"

namespace egemm::cases {

// n points in d dimensions: each around one of `centers` centres drawn
// uniformly in [-10, 10]^d, with unit Gaussian noise.
Matrix gaussian_blobs(int n, int d, int centers, std::uint64_t seed, const char* label);

}  // namespace egemm::cases
