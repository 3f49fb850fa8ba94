// Debug logging, off unless the environment says EGEMM_LOG=debug (read once,
// at the first call that logs). The message is built only when logging is on.
#pragma once

#include <string>

#include "egemm/gemm_args.hpp"
#include "egemm/path_selection.hpp"

namespace egemm {

bool debug_log_enabled();
void write_debug_log(const std::string& message);

namespace detail {
// For the tests, which turn the log on and off as they run: 1 on, 0 off,
// -1 back to what EGEMM_LOG said. Not for programs: they set EGEMM_LOG.
void force_debug_log(int state);
}  // namespace detail

template <class MakeMessage>
void log_debug(MakeMessage&& make) {
  if (debug_log_enabled()) write_debug_log(make());
}

// "NT m=.. n=.. k=.." for log lines.
std::string describe(const GemmArgs& args);
std::string describe(const GemmArgs64& args);

// "<backend> EmulatedFP32 NT m=.. n=.. k=.. -> <path>", and on the FP16 path
// how many wide rows of op(A) and columns of op(B) it recomputes in float64
// and how many rows and columns have their sparse outliers added apart.
std::string describe_path_choice(const char* backend, const GemmArgs& args, EmulationPath path, index_t wide_rows_a,
                                 index_t wide_columns_b, index_t outlier_rows_a = 0, index_t outlier_columns_b = 0);

// "<backend> NormwiseFP32 NT m=.. n=.. k=.. -> <path> (cross terms digits=<hex> fp32=<hex>
// pairs=<hex>: Q = <m n digits / (pairs fp32)>, the rule's bound <bound>)": the cross rule's sums
// exactly (C99 hexadecimal floats), and the model's ratio it held against the bound.
std::string describe_normwise_route(const char* backend, const GemmArgs& args, EmulationPath path,
                                    const numerics::Int8CrossTerms& terms);

}  // namespace egemm
