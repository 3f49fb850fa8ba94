// k nearest neighbours: all query-to-reference squared distances through one
// KokkosBlas::gemm with a tag, then the k smallest per query; against the same
// code with NativeFP32: end-to-end and gemm time, and how many queries get a
// different neighbour set (and how many neighbours differ in all).
//
//   egemm_knn [--tag EmulatedFP32] [--points 8192] [--queries 4096] [--dims 128] [--k 16] [--sweep] [--csv F]
#include <algorithm>
#include <cstdio>
#include <vector>

#include "cli.hpp"
#include "csv.hpp"
#include "dataset.hpp"
#include "distances.hpp"
#include "views.hpp"

// Outside an anonymous namespace: CUDA's extended lambdas need an enclosing
// function with external linkage.
namespace egemm::cases::knn_case {

constexpr int max_k = 32;
// Reference points per partial top-k scan: many short scans keep a GPU busy
// (one thread per query would leave most of it idle and hide the gemm).
constexpr int refs_per_chunk = 1024;

struct Run {
  std::vector<int> neighbours;  // queries x k, each query's indices sorted ascending
  Timing time;
};

// Insertion into the sorted list of the k smallest (d, idx) so far; a tie
// keeps the candidate seen first, so the result is that of one serial scan.
KOKKOS_INLINE_FUNCTION void keep_smallest(float* d, int* idx, int& have, int k, float v, int r) {
  if (have == k && !(v < d[k - 1])) return;
  int pos = have < k ? have++ : k - 1;
  while (pos > 0 && d[pos - 1] > v) {
    d[pos] = d[pos - 1];
    idx[pos] = idx[pos - 1];
    --pos;
  }
  d[pos] = v;
  idx[pos] = r;
}

Run knn(PolicyId tag, const Matrix& queries, const Matrix& refs, int k) {
  const int nq = static_cast<int>(queries.extent(0)), nr = static_cast<int>(refs.extent(0));
  const int chunks = (nr + refs_per_chunk - 1) / refs_per_chunk;
  Matrix dist("distances", nq, nr);
  Kokkos::View<float***, Kokkos::LayoutRight, Space> part_d("partial_distances", nq, chunks, k);
  Kokkos::View<int***, Kokkos::LayoutRight, Space> part_i("partial_neighbours", nq, chunks, k);
  Kokkos::View<int**, Kokkos::LayoutRight, Space> part_n("partial_counts", nq, chunks);
  Kokkos::View<int**, Kokkos::LayoutRight, Space> best("neighbours", nq, k);
  const Vector query_norms("query_norms", nq), ref_norms("reference_norms", nr);  // allocated before the clock starts
  Run run;
  Space space;
  space.fence();
  Kokkos::Timer timer;
  squared_norms(queries, query_norms);
  squared_norms(refs, ref_norms);
  run.time.gemm = squared_distances(tag, queries, query_norms, refs, ref_norms, dist);
  // Top-k of each (query, chunk of references), then of each query's chunks in order.
  Kokkos::parallel_for(
      "select_chunks", Kokkos::MDRangePolicy<Space, Kokkos::Rank<2>>({0, 0}, {nq, chunks}),
      KOKKOS_LAMBDA(const int q, const int c) {
        float d[max_k];
        int idx[max_k];
        int have = 0;
        const int end = (c + 1) * refs_per_chunk < nr ? (c + 1) * refs_per_chunk : nr;
        for (int r = c * refs_per_chunk; r < end; ++r) keep_smallest(d, idx, have, k, dist(q, r), r);
        for (int j = 0; j < have; ++j) part_d(q, c, j) = d[j], part_i(q, c, j) = idx[j];
        part_n(q, c) = have;
      });
  Kokkos::parallel_for(
      "select_merge", Kokkos::RangePolicy<Space>(0, nq), KOKKOS_LAMBDA(const int q) {
        float d[max_k];
        int idx[max_k];
        int have = 0;
        for (int c = 0; c < chunks; ++c)
          for (int j = 0; j < part_n(q, c); ++j) keep_smallest(d, idx, have, k, part_d(q, c, j), part_i(q, c, j));
        for (int j = 0; j < k; ++j) best(q, j) = j < have ? idx[j] : -1;
      });
  space.fence();
  run.time.total = timer.seconds();
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, best);
  run.neighbours.assign(h.data(), h.data() + static_cast<std::size_t>(nq) * k);
  for (int q = 0; q < nq; ++q) std::sort(run.neighbours.begin() + q * k, run.neighbours.begin() + (q + 1) * k);
  return run;
}

struct Differences {
  int queries = 0, neighbours = 0;
};

Differences compare(const std::vector<int>& a, const std::vector<int>& b, int k) {
  Differences out;
  for (std::size_t q = 0; q * k < a.size(); ++q) {
    std::vector<int> missing;
    std::set_difference(a.begin() + q * k, a.begin() + (q + 1) * k, b.begin() + q * k, b.begin() + (q + 1) * k,
                        std::back_inserter(missing));
    out.queries += !missing.empty();
    out.neighbours += static_cast<int>(missing.size());
  }
  return out;
}

void one_size(const Options& o, int points) {
  const Matrix refs = gaussian_blobs(points, o.dims, 32, 2021, "references");
  const Matrix queries = gaussian_blobs(o.queries, o.dims, 32, 2022, "queries");
  with_tag(o.tag, [&](PolicyId tag) {
    // Warm-up of both paths (kernels, workspace pools, cuBLAS handle).
    knn(PolicyId::native_fp32, queries, refs, o.groups);
    knn(tag, queries, refs, o.groups);
    const Run fp32 = knn(PolicyId::native_fp32, queries, refs, o.groups);
    const Run run = knn(tag, queries, refs, o.groups);
    const Differences diff = compare(run.neighbours, fp32.neighbours, o.groups);
    std::printf("%8d %8d %6d %4d %12.2f %12.2f %12.2f %12.2f %8.2f %8.2f %10d %12d\n", points, o.queries, o.dims,
                o.groups, run.time.total * 1e3, run.time.gemm * 1e3, fp32.time.total * 1e3, fp32.time.gemm * 1e3,
                fp32.time.total / run.time.total, fp32.time.gemm / run.time.gemm, diff.queries, diff.neighbours);
    char line[512];
    std::snprintf(line, sizeof line, "%s,%d,%d,%d,%d,0,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%d,%d", o.tag.c_str(), points,
                  o.queries, o.dims, o.groups, run.time.total, run.time.gemm, fp32.time.total, fp32.time.gemm,
                  fp32.time.total / run.time.total, fp32.time.gemm / run.time.gemm, diff.queries, diff.neighbours);
    append_csv(o, "knn", line);
    std::fflush(stdout);  // progress shows per size even through a pipe (tee)
  });
}

}  // namespace egemm::cases::knn_case

int main(int argc, char** argv) {
  using namespace egemm::cases;
  Kokkos::ScopeGuard guard(argc, argv);
  Options o = parse_options(argc, argv, "egemm_knn");
  if (o.groups > knn_case::max_k) {
    std::fprintf(stderr, "egemm_knn: --k at most %d\n", knn_case::max_k);
    return 2;
  }
  std::printf("kNN on %s: %s vs NativeFP32, %d queries, k = %d; times in ms; differing = queries whose neighbour "
              "set differs from the FP32 run, neighbours = differing neighbours in all\n",
              Space::name(), o.tag.c_str(), o.queries, o.groups);
  std::printf("%8s %8s %6s %4s %12s %12s %12s %12s %8s %8s %10s %12s\n", "points", "queries", "dims", "k", "total",
              "gemm", "fp32 total", "fp32 gemm", "speedup", "gemm x", "differing", "neighbours");
  if (o.sweep)
    for (int points : sweep_points) knn_case::one_size(o, points);
  else
    knn_case::one_size(o, o.points);
  return 0;
}
