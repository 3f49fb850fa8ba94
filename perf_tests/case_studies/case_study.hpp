// What the kMeans and kNN case studies share (the EGEMM-TC paper's §7.5):
// synthetic data, squared distances through one KokkosBlas::gemm with a
// precision tag chosen at run time, timing, and the command line.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <functional>
#include <string>

#include "egemm/kokkos.hpp"

namespace egemm::cases {

using Space = Kokkos::DefaultExecutionSpace;
using Matrix = Kokkos::View<float**, Kokkos::LayoutRight, Space>;  // one point per row
using Vector = Kokkos::View<float*, Space>;
using Labels = Kokkos::View<int*, Space>;

struct Options {
  std::string tag = "EmulatedFP32";
  int points = 8192;
  int dims = 128;
  int groups = 64;   // kMeans: clusters; kNN: neighbours per query (k)
  int queries = 4096;  // kNN only
  int iters = 10;      // kMeans only
  bool sweep = false;
  std::string csv;  // append one line per run when set
};
Options parse_options(int argc, char** argv, const char* program);

// n points in d dimensions around `centers` Gaussian blobs (deterministic in seed).
Matrix gaussian_blobs(int n, int d, int centers, std::uint64_t seed, const char* label);

// The EGEMM tag called `name` (policy_traits<T>::name); throws for an unknown name.
void with_tag(const std::string& name, const std::function<void(PolicyId)>& body);

// D(i, j) = |x_i - y_j|^2 = |x_i|^2 - 2 x_i . y_j + |y_j|^2, the cross term by
// one KokkosBlas::gemm(space, tag, "N", "T", -2, X, Y, 0, D). Returns the
// seconds spent in the gemm (fenced).
double squared_distances(PolicyId tag, const Matrix& x, const Vector& x_norms, const Matrix& y, const Vector& y_norms,
                         const Matrix& d);
Vector squared_norms(const Matrix& x);

struct Timing {
  double total = 0, gemm = 0;
};

void append_csv(const Options& o, const std::string& program, const std::string& line);

}  // namespace egemm::cases
