// Int8Slices' accuracy against how far its rows spread, on the host (the
// oracle whose bits the GPU reproduces): the evidence for a rule that would
// take the INT8 digits only where they are as accurate as FP32
// (docs/performance.md, "Not tried yet").
//
//   egemm_int8_accuracy_study [--shapes MxNxK,...] [--csv FILE]
//
// For input families from narrow rows to wide ones it prints each call's
// row statistic R = 2^e / mean|x| (e: the row's Int8Slices exponent, so
// 2^e bounds the row's largest magnitude; the worst and the median over the
// rows of op(A) and the columns of op(B)) beside the relative Frobenius
// errors against float64 of Int8Slices, EmulatedFP32 and FP32 summed in k
// order (NativeFP32's host form; cuBLAS SGEMM's blocked sums are a little
// more accurate). Int8Slices' error grows with R; FP32's does not. Then
// NormwiseFP32, which takes the digits only where every row has R <=
// sqrt(k) / 10 (numerics::int8_digits_hold_row) and the cross statistic Q =
// m n digits / (pairs fp32) of the operands' column sums is at most 0.2
// (numerics::int8_digits_hold_product: Q estimates the digits' squared error
// over FP32's, within a factor of ~1-3), its route and its error; Q last.
// Two families are built as pairs: a row's small elements meeting the other
// operand's mass while its large ones meet zeros (in halves of k, or
// interleaved), which each row's R cannot see.
#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "egemm/gemm.hpp"
#include "egemm/gemm_args.hpp"
#include "egemm/numerics/int8_digits.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/reference.hpp"
#include "support/shape_list.hpp"

namespace {

using egemm::index_t;

struct Shape {
  int m, n, k;
};

// An input family: the value at (row, position in the row) from a generator
// seeded per call (rows are op(A)'s rows and op(B)'s columns alike), or both
// operands at once where the family is how they meet.
using PairFill = std::function<void(std::mt19937&, const Shape&, std::vector<float>& a, std::vector<float>& b)>;
struct Family {
  const char* name;
  std::function<float(std::mt19937&, index_t row)> value;
  PairFill pair = nullptr;
};

// op(A)'s rows: large elements (|x| in [0.5, 1]) at the positions `large`
// picks, 1e-3 uniform elsewhere; op(B): zero where A is large, uniform
// elsewhere (test::small_halves_meeting's operands, any shape).
Family small_elements_meeting_mass(const char* name, std::function<bool(index_t p, index_t k)> large) {
  return {name, nullptr, [large](std::mt19937& g, const Shape& s, std::vector<float>& a, std::vector<float>& b) {
            std::uniform_real_distribution<float> uniform(-1.0f, 1.0f), big(0.5f, 1.0f);
            for (index_t p = 0; p < s.k; ++p) {
              const bool l = large(p, s.k);
              for (index_t i = 0; i < s.m; ++i)
                a[i + p * s.m] = l ? (uniform(g) < 0.0f ? -big(g) : big(g)) : 1e-3f * uniform(g);
              for (index_t j = 0; j < s.n; ++j) b[p + j * s.k] = l ? 0.0f : uniform(g);
            }
          }};
}

float uniform(std::mt19937& g) { return std::uniform_real_distribution<float>(-1.0f, 1.0f)(g); }

// Magnitudes 2^U[-s, s], random signs: rows spreading over 2^(2s).
Family log_uniform(const char* name, float s) {
  return {name, [s](std::mt19937& g, index_t) {
            const float x = std::exp2(std::uniform_real_distribution<float>(-s, s)(g));
            return std::bernoulli_distribution(0.5)(g) ? x : -x;
          }};
}

std::vector<Family> families() {
  return {
      {"uniform [-1, 1]", [](std::mt19937& g, index_t) { return uniform(g); }},
      {"normal", [](std::mt19937& g, index_t) { return std::normal_distribution<float>(0.0f, 1.0f)(g); }},
      {"uniform, each row its own scale 2^U[-20, 20]",
       [](std::mt19937& g, index_t row) {  // the row's scale from a hash of its index
         return std::ldexp(uniform(g), static_cast<int>((static_cast<std::uint32_t>(row) * 2654435761u >> 16) % 41) - 20);
       }},
      log_uniform("magnitudes over 2^-1..2^1", 1.0f),
      log_uniform("magnitudes over 2^-2..2^2", 2.0f),
      log_uniform("magnitudes over 2^-4..2^4", 4.0f),
      log_uniform("magnitudes over 2^-8..2^8", 8.0f),
      log_uniform("magnitudes over 2^-16..2^16", 16.0f),
      {"uniform, 90% zeros",
       [](std::mt19937& g, index_t) { return std::bernoulli_distribution(0.1)(g) ? uniform(g) : 0.0f; }},
      {"uniform, 1 in 256 values 2^10 larger",
       [](std::mt19937& g, index_t) {
         const float x = uniform(g);
         return std::bernoulli_distribution(1.0 / 256)(g) ? x * 1024.0f : x;
       }},
      small_elements_meeting_mass("small elements meeting B's mass, halves", [](index_t p, index_t k) { return p < k / 2; }),
      small_elements_meeting_mass("small elements meeting B's mass, interleaved",
                                  [](index_t p, index_t) { return p % 2 == 0; }),
  };
}

// R of one row (k values at stride `stride`): 2^e / mean|x|; 0 for a row of zeros (no error there).
double row_statistic(const float* x, index_t k, index_t stride) {
  double sum = 0;
  float max_abs = 0;
  for (index_t p = 0; p < k; ++p) {
    const float a = std::fabs(x[p * stride]);
    sum += a;
    max_abs = std::max(max_abs, a);
  }
  if (sum == 0) return 0;
  return std::ldexp(1.0, egemm::numerics::int8_row_exponent(max_abs)) / (sum / static_cast<double>(k));
}

struct Row {
  std::string family, shape;
  double r_max = 0, r_median = 0, int8 = 0, emulated = 0, fp32 = 0, normwise = 0;
  std::string route;  // NormwiseFP32's
  double cross = 0;   // Q = m n digits / (pairs fp32), numerics::int8_digits_hold_product's statistic
};

// A is m x k and B is k x n, both column-major, 'N' 'N': op(A)'s rows are A's
// rows (stride m), op(B)'s columns B's columns (contiguous).
Row measure(const Family& f, const Shape& s, unsigned seed) {
  std::mt19937 gen(seed);
  std::vector<float> a(static_cast<std::size_t>(s.m) * s.k), b(static_cast<std::size_t>(s.k) * s.n);
  if (f.pair) {
    f.pair(gen, s, a, b);
  } else {
    for (index_t i = 0; i < s.m; ++i)
      for (index_t p = 0; p < s.k; ++p) a[i + p * s.m] = f.value(gen, i);
    for (index_t j = 0; j < s.n; ++j)
      for (index_t p = 0; p < s.k; ++p) b[p + j * s.k] = f.value(gen, j);
  }
  std::vector<double> r;
  for (index_t i = 0; i < s.m; ++i) r.push_back(row_statistic(a.data() + i, s.k, s.m));
  for (index_t j = 0; j < s.n; ++j) r.push_back(row_statistic(b.data() + j * s.k, s.k, 1));
  std::sort(r.begin(), r.end());
  Row out{f.name, egemm::perf::shape_text(s), r.back(), r[r.size() / 2]};

  std::vector<double> ref(static_cast<std::size_t>(s.m) * s.n);
  std::vector<float> c(ref.size());
  egemm::reference::gemm_fp64(egemm::make_gemm_args("study", 'N', 'N', s.m, s.n, s.k, 1.0f, a.data(), s.m, b.data(),
                                                    s.k, 0.0f, c.data(), s.m),
                              ref.data());
  auto error_of = [&](auto tag) {
    std::fill(c.begin(), c.end(), std::numeric_limits<float>::quiet_NaN());  // poisoned: beta = 0 must write all of C
    egemm::gemm(tag, 'N', 'N', s.m, s.n, s.k, 1.0f, a.data(), s.m, b.data(), s.k, 0.0f, c.data(), s.m);
    const egemm::reference::ErrorStats e = egemm::reference::compare(c.data(), s.m, ref.data(), s.m, s.n);
    if (e.nonfinite_mismatch != 0) throw std::runtime_error("non-finite entries where float64 has none");
    return e.rel_frobenius;
  };
  out.int8 = error_of(egemm::Int8Slices{});
  out.emulated = error_of(egemm::EmulatedFP32{});
  out.fp32 = error_of(egemm::NativeFP32{});
  out.normwise = error_of(egemm::NormwiseFP32{});
  out.route = egemm::path_name(egemm::normwise_fp32_path('N', 'N', s.m, s.n, s.k, a.data(), s.m, b.data(), s.k));
  const egemm::GemmArgs g = egemm::make_operand_args("study", 'N', 'N', s.m, s.n, s.k, a.data(), s.m, b.data(), s.k);
  const egemm::numerics::Int8CrossTerms t = egemm::int8_cross_terms(g.a_rows(), g.b_cols());
  out.cross = static_cast<double>(s.m) * s.n * t.digits / (t.pairs * t.fp32);
  return out;
}

}  // namespace

int main(int argc, char** argv) try {
  std::vector<Shape> shapes{{256, 256, 256}, {256, 256, 4096}};
  std::string csv;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shapes" && i + 1 < argc) {
      shapes = egemm::perf::parse_shapes<Shape>(argv[++i]);
    } else if (arg == "--csv" && i + 1 < argc) {
      csv = argv[++i];
    } else {
      throw std::invalid_argument("unknown argument '" + arg +
                                  "'; usage: egemm_int8_accuracy_study [--shapes MxNxK,...] [--csv FILE]");
    }
  }
  const std::vector<Family> fams = families();
  std::vector<Row> rows;
  unsigned seed = std::random_device{}();
  std::printf("# Int8Slices' accuracy against its rows' spread (host oracle, seed %u)\n\n", seed);
  std::printf("R = 2^e / mean|x| per row of op(A) and column of op(B); errors: relative Frobenius against float64.\n\n");
  std::printf("| inputs | MxNxK | R worst | R median | Int8Slices | EmulatedFP32 | FP32 (k order) | Int8Slices / FP32 "
              "| NormwiseFP32 | its route | NormwiseFP32 / FP32 | cross Q |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
  int done = 0;
  for (const Shape& s : shapes)
    for (const Family& f : fams) {
      std::fprintf(stderr, "[%d/%zu] %s, %s\n", ++done, shapes.size() * fams.size(), f.name,
                   egemm::perf::shape_text(s).c_str());
      const Row r = measure(f, s, seed++);
      std::printf("| %s | %s | %.3g | %.3g | %.2e | %.2e | %.2e | %.2f | %.2e | %s | %.2f | %.3g |\n", r.family.c_str(),
                  r.shape.c_str(), r.r_max, r.r_median, r.int8, r.emulated, r.fp32, r.int8 / r.fp32, r.normwise,
                  r.route.c_str(), r.normwise / r.fp32, r.cross);
      std::fflush(stdout);
      rows.push_back(r);
    }
  if (!csv.empty()) {
    std::ofstream out(csv);
    out << "inputs,shape,r_worst,r_median,int8_slices,emulated_fp32,fp32_k_order,normwise_fp32,normwise_route,cross_q\n";
    for (const Row& r : rows)
      out << '"' << r.family << "\"," << r.shape << ',' << r.r_max << ',' << r.r_median << ',' << r.int8 << ','
          << r.emulated << ',' << r.fp32 << ',' << r.normwise << ',' << r.route << ',' << r.cross << '\n';
    if (!out) throw std::runtime_error("could not write " + csv);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "egemm_int8_accuracy_study: %s\n", e.what());
  return 1;
}
