#include "case_study.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <stdexcept>
#include <vector>

namespace egemm::cases {

Options parse_options(int argc, char** argv, const char* program) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--tag") o.tag = value();
    else if (a == "--points") o.points = std::stoi(value());
    else if (a == "--dims") o.dims = std::stoi(value());
    else if (a == "--clusters" || a == "--k") o.groups = std::stoi(value());
    else if (a == "--queries") o.queries = std::stoi(value());
    else if (a == "--iters") o.iters = std::stoi(value());
    else if (a == "--csv") o.csv = value();
    else if (a == "--sweep") o.sweep = true;
    else if (a == "--help") {
      std::printf("%s [--tag NAME] [--points N] [--dims D] [--clusters K | --k K] [--queries Q] [--iters I] "
                  "[--sweep] [--csv FILE]\n  tags:", program);
      for_each_policy([](auto t) { std::printf(" %s", policy_traits<decltype(t)>::name); });
      std::printf("\n");
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument " + a + " (try --help)");
    }
  }
  return o;
}

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

void with_tag(const std::string& name, const std::function<void(PolicyId)>& body) {
  bool found = false;
  for_each_policy([&](auto t) {
    if (!found && name == policy_traits<decltype(t)>::name) {
      found = true;
      body(policy_traits<decltype(t)>::id);
    }
  });
  if (!found) throw std::invalid_argument("unknown tag " + name + " (try --help)");
}

Vector squared_norms(const Matrix& x) {
  Vector norms("norms", x.extent(0));
  const int d = static_cast<int>(x.extent(1));
  Kokkos::parallel_for(
      "squared_norms", Kokkos::RangePolicy<Space>(0, x.extent(0)), KOKKOS_LAMBDA(const int i) {
        float s = 0.0f;
        for (int j = 0; j < d; ++j) s += x(i, j) * x(i, j);
        norms(i) = s;
      });
  return norms;
}

double squared_distances(PolicyId tag, const Matrix& x, const Vector& x_norms, const Matrix& y, const Vector& y_norms,
                         const Matrix& d) {
  Space space;
  space.fence();
  Kokkos::Timer timer;
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

void append_csv(const Options& o, const std::string& program, const std::string& line) {
  if (o.csv.empty()) return;
  std::ifstream probe(o.csv);
  const bool fresh = !probe.good() || probe.peek() == std::ifstream::traits_type::eof();
  std::ofstream out(o.csv, std::ios::app);
  if (fresh) out << "program,space,tag,points,queries,dims,groups,iters,total_s,gemm_s,fp32_total_s,fp32_gemm_s,speedup,"
                    "gemm_speedup,differences,first_step_differences\n";
  out << program << "," << Space::name() << "," << line << "\n";
}

}  // namespace egemm::cases
