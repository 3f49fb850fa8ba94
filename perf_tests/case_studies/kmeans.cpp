// kMeans (Lloyd) whose distances go through KokkosBlas::gemm with a tag,
// against the same code with NativeFP32: end-to-end and gemm time, and how
// many points end in a different cluster (after the first step too, which
// isolates the gemm's rounding from later trajectory divergence).
//
//   egemm_kmeans [--tag EmulatedFP32] [--points 8192] [--dims 128] [--clusters 64] [--iters 10] [--sweep] [--csv F]
#include <cstdio>
#include <vector>

#include "cli.hpp"
#include "csv.hpp"
#include "dataset.hpp"
#include "distances.hpp"
#include "egemm/kokkos.hpp"
#include "views.hpp"

// Outside an anonymous namespace: CUDA's extended lambdas need an enclosing
// function with external linkage.
namespace egemm::cases::kmeans_case {

struct Run {
  std::vector<int> labels, first_labels;
  Timing time;
};

Run kmeans(PolicyId tag, const Matrix& x, int clusters, int iters) {
  const int n = static_cast<int>(x.extent(0)), d = static_cast<int>(x.extent(1));
  Matrix c("centroids", clusters, d), dist("distances", n, clusters);
  Labels labels("labels", n);
  Matrix membership("membership", n, clusters), sums("sums", clusters, d), counts("counts", clusters, 1), ones("ones", n, 1);
  Kokkos::deep_copy(ones, 1.0f);
  // Start from the first `clusters` points: deterministic, the same for every tag.
  Kokkos::deep_copy(c, Kokkos::subview(x, Kokkos::make_pair(0, clusters), Kokkos::ALL));
  const Vector x_norms = squared_norms(x);
  // Allocated before the clock starts: both runs would pay for them alike,
  // pulling the end-to-end ratio towards 1.
  const Vector c_norms("centroid_norms", clusters);
  Labels first_labels("first_labels", n);
  Run run;
  Space space;
  space.fence();
  Kokkos::Timer timer;
  for (int it = 0; it < iters; ++it) {
    squared_norms(c, c_norms);
    run.time.gemm += squared_distances(tag, x, x_norms, c, c_norms, dist);
    Kokkos::parallel_for(
        "assign", Kokkos::RangePolicy<Space>(0, n), KOKKOS_LAMBDA(const int i) {
          int best = 0;
          for (int g = 1; g < clusters; ++g)
            if (dist(i, g) < dist(i, best)) best = g;
          labels(i) = best;
        });
    // Centroids as gemms: sums = M^T X and counts = M^T 1 with M the one-hot
    // membership matrix. NativeFP32 in both runs, so equal labels give
    // bit-equal centroids (no atomics), and the update costs a gemm rather
    // than a scan of all points per (cluster, dimension).
    Kokkos::parallel_for(
        "membership", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {n, clusters}),
        KOKKOS_LAMBDA(const int i, const int g) { membership(i, g) = labels(i) == g ? 1.0f : 0.0f; });
    KokkosBlas::gemm(space, NativeFP32{}, "T", "N", 1.0f, membership, x, 0.0f, sums);
    KokkosBlas::gemm(space, NativeFP32{}, "T", "N", 1.0f, membership, ones, 0.0f, counts);
    Kokkos::parallel_for(
        "update", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {clusters, d}),
        KOKKOS_LAMBDA(const int g, const int j) {
          if (counts(g, 0) > 0.0f) c(g, j) = sums(g, j) / counts(g, 0);  // empty cluster: keep its centroid
        });
    if (it == 0) Kokkos::deep_copy(space, first_labels, labels);  // on the device: read after the clock stops
  }
  space.fence();
  run.time.total = timer.seconds();
  auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, first_labels);
  run.first_labels.assign(first.data(), first.data() + n);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, labels);
  run.labels.assign(h.data(), h.data() + n);
  return run;
}

int differences(const std::vector<int>& a, const std::vector<int>& b) {
  int diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff += a[i] != b[i];
  return diff;
}

// The referee for the first step, where both runs start from the same
// centroids (the first `clusters` points): of the points the two runs assign
// differently, how many the tagged run gives the centroid that is nearer in
// float64 (the rest went to FP32, or tie).
int tagged_nearer_in_float64(const Matrix& x, const std::vector<int>& tagged, const std::vector<int>& fp32) {
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, x);
  const int d = static_cast<int>(x.extent(1));
  auto distance = [&](std::size_t i, int g) {
    double sum = 0.0;
    for (int j = 0; j < d; ++j) {
      const double diff = static_cast<double>(h(i, j)) - static_cast<double>(h(g, j));
      sum += diff * diff;
    }
    return sum;
  };
  int nearer = 0;
  for (std::size_t i = 0; i < tagged.size(); ++i)
    if (tagged[i] != fp32[i] && distance(i, tagged[i]) < distance(i, fp32[i])) ++nearer;
  return nearer;
}

void one_size(const Options& o, int points) {
  const Matrix x = gaussian_blobs(points, o.dims, o.groups, 2021, "points");
  with_tag(o.tag, [&](PolicyId tag) {
    // Warm-up of both paths: kernels loaded, workspace pools and the cuBLAS
    // handle created, so neither timed run pays for them.
    kmeans(PolicyId::native_fp32, x, o.groups, 1);
    kmeans(tag, x, o.groups, 1);
    const Run fp32 = kmeans(PolicyId::native_fp32, x, o.groups, o.iters);
    const Run run = kmeans(tag, x, o.groups, o.iters);
    const int diff = differences(run.labels, fp32.labels), first = differences(run.first_labels, fp32.first_labels);
    const int nearer = first > 0 ? tagged_nearer_in_float64(x, run.first_labels, fp32.first_labels) : 0;
    std::printf("%8d %6d %9d %12.2f %12.2f %12.2f %12.2f %8.2f %8.2f %12d %12d %14d\n", points, o.dims, o.groups,
                run.time.total * 1e3, run.time.gemm * 1e3, fp32.time.total * 1e3, fp32.time.gemm * 1e3,
                fp32.time.total / run.time.total, fp32.time.gemm / run.time.gemm, diff, first, nearer);
    char line[512];
    std::snprintf(line, sizeof line, "%s,%d,0,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%d,%d", o.tag.c_str(), points,
                  o.dims, o.groups, o.iters, run.time.total, run.time.gemm, fp32.time.total, fp32.time.gemm,
                  fp32.time.total / run.time.total, fp32.time.gemm / run.time.gemm, diff, first);
    append_csv(o, "kmeans", line);
    std::fflush(stdout);  // progress shows per size even through a pipe (tee)
  });
}

}  // namespace egemm::cases::kmeans_case

int main(int argc, char** argv) {
  using namespace egemm::cases;
  using egemm::cases::kmeans_case::one_size;
  Kokkos::ScopeGuard guard(argc, argv);
  const Options o = parse_options(argc, argv, "egemm_kmeans");
  std::printf("kMeans on %s: %s vs NativeFP32, %d iterations; times in ms; differences = points whose final "
              "cluster differs from the FP32 run (first = after one step; tag right = of those, how many the tag "
              "gave the centroid nearer in float64)\n",
              Space::name(), o.tag.c_str(), o.iters);
  std::printf("%8s %6s %9s %12s %12s %12s %12s %8s %8s %12s %12s %14s\n", "points", "dims", "clusters", "total",
              "gemm", "fp32 total", "fp32 gemm", "speedup", "gemm x", "differences", "first", "tag right");
  if (o.sweep)
    for (int points : sweep_points) one_size(o, points);
  else
    one_size(o, o.points);
  return 0;
}
