#include "dataset.hpp"

#include <random>
#include <string>
#include <vector>

namespace egemm::cases {

// Drawn on the host with a fixed generator, so every run (and every tag) sees
// the same points whatever the execution space.
Matrix gaussian_blobs(int n, int d, int centers, std::uint64_t seed, const char* label) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> center_coord(-10.0f, 10.0f);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  std::vector<float> c(static_cast<std::size_t>(centers) * d);
  for (float& v : c) v = center_coord(gen);
  Matrix x(std::string(label), n, d);
  auto h = Kokkos::create_mirror_view(x);
  std::uniform_int_distribution<int> pick(0, centers - 1);
  for (int i = 0; i < n; ++i) {
    const int g = pick(gen);
    for (int j = 0; j < d; ++j) h(i, j) = c[static_cast<std::size_t>(g) * d + j] + noise(gen);
  }
  Kokkos::deep_copy(x, h);
  return x;
}

}  // namespace egemm::cases
