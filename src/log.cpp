// EGEMM_LOG=debug: whether it is on, and the log lines that name a call's path and route.
#include "egemm/log.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace egemm {
namespace {

// -1: as EGEMM_LOG says; 0 or 1: forced off or on (detail::force_debug_log).
std::atomic<int> forced_debug_log{-1};

}  // namespace

// EGEMM_LOG is read once, at the first call that asks: a getenv on every call
// would scan the environment on the hot path of small calls, and the
// environment a program starts with is the one users set it in.
bool debug_log_enabled() {
  const int forced = forced_debug_log.load(std::memory_order_relaxed);
  if (forced >= 0) return forced != 0;
  static const bool from_environment = [] {
    const char* v = std::getenv("EGEMM_LOG");
    return v != nullptr && std::strcmp(v, "debug") == 0;
  }();
  return from_environment;
}

void detail::force_debug_log(int state) { forced_debug_log.store(state < 0 ? -1 : (state != 0 ? 1 : 0), std::memory_order_relaxed); }

void write_debug_log(const std::string& message) { std::fprintf(stderr, "egemm: %s\n", message.c_str()); }

namespace {
template <class T>
std::string describe_shape(const GemmArgsT<T>& g) {
  return std::string(1, g.trans_a == Op::none ? 'N' : 'T') + (g.trans_b == Op::none ? 'N' : 'T') +
         " m=" + std::to_string(g.m) + " n=" + std::to_string(g.n) + " k=" + std::to_string(g.k);
}
}  // namespace

std::string describe(const GemmArgs& g) { return describe_shape(g); }
std::string describe(const GemmArgs64& g) { return describe_shape(g); }

std::string describe_path_choice(const char* backend, const GemmArgs& args, EmulationPath path, index_t wide_rows_a,
                                 index_t wide_columns_b, index_t outlier_rows_a, index_t outlier_columns_b) {
  std::string s = std::string(backend) + " EmulatedFP32 " + describe(args) + " -> " + path_name(path);
  if (path == EmulationPath::fp16_scaled && wide_rows_a + wide_columns_b > 0)
    s += ", float64 for " + std::to_string(wide_rows_a) + " wide rows of op(A), " + std::to_string(wide_columns_b) +
         " wide columns of op(B)";
  if (path == EmulationPath::fp16_scaled && outlier_rows_a + outlier_columns_b > 0)
    s += ", sparse outliers apart in " + std::to_string(outlier_rows_a) + " rows of op(A), " +
         std::to_string(outlier_columns_b) + " columns of op(B)";
  return s;
}

std::string describe_normwise_route(const char* backend, const GemmArgs& args, EmulationPath path,
                                    const numerics::Int8CrossTerms& terms) {
  const double entries = static_cast<double>(args.m) * static_cast<double>(args.n);
  const double model = terms.pairs * terms.fp32 > 0.0 ? entries * terms.digits / (terms.pairs * terms.fp32) : 0.0;
  char sums[192];
  std::snprintf(sums, sizeof sums, " (cross terms digits=%a fp32=%a pairs=%a: Q = %.3g, the rule's bound %g)",
                terms.digits, terms.fp32, terms.pairs, model, numerics::int8_cross_bound);
  return std::string(backend) + " NormwiseFP32 " + describe(args) + " -> " + path_name(path) + sums;
}

}  // namespace egemm
