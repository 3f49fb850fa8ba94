#include "distances.hpp"

#include "egemm/kokkos.hpp"

namespace egemm::cases {

Vector squared_norms(const Matrix& x) {
  Vector norms("norms", x.extent(0));
  squared_norms(x, norms);
  return norms;
}

void squared_norms(const Matrix& x, const Vector& norms) {
  const int d = static_cast<int>(x.extent(1));
  Kokkos::parallel_for(
      "squared_norms", Kokkos::RangePolicy<Space>(0, x.extent(0)), KOKKOS_LAMBDA(const int i) {
        float s = 0.0f;
        for (int j = 0; j < d; ++j) s += x(i, j) * x(i, j);
        norms(i) = s;
      });
}

double squared_distances(PolicyId tag, const Matrix& x, const Vector& x_norms, const Matrix& y, const Vector& y_norms,
                         const Matrix& d) {
  Space space;
  space.fence();
  Kokkos::Timer timer;
  // The run-time id back to its tag type: one gemm instantiation per tag.
  for_each_policy([&](auto t) {
    if (policy_traits<decltype(t)>::id == tag) KokkosBlas::gemm(space, t, "N", "T", -2.0f, x, y, 0.0f, d);
  });
  space.fence();
  const double gemm_seconds = timer.seconds();
  Kokkos::parallel_for(
      "add_norms", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {d.extent(0), d.extent(1)}),
      KOKKOS_LAMBDA(const int i, const int j) { d(i, j) += x_norms(i) + y_norms(j); });
  return gemm_seconds;
}

}  // namespace egemm::cases
