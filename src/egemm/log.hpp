// Debug logging, off unless the environment says EGEMM_LOG=debug. The
// message is built only when logging is on.
#pragma once

#include <string>

#include "egemm/gemm_args.hpp"

namespace egemm {

bool debug_log_enabled();
void write_debug_log(const std::string& message);

template <class MakeMessage>
void log_debug(MakeMessage&& make) {
  if (debug_log_enabled()) write_debug_log(make());
}

// "NT m=.. n=.. k=.." for log lines.
std::string describe(const GemmArgs& args);

}  // namespace egemm
