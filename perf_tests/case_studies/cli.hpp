// The case studies' command line, and the run-time choice of an EGEMM tag by
// its policy_traits<T>::name.
#pragma once

#include <functional>
#include <string>

#include "egemm/policy.hpp"

namespace egemm::cases {

struct Options {
  std::string tag = "EmulatedFP32";
  int points = 8192;
  int dims = 128;
  int groups = 64;     // kMeans: clusters; kNN: neighbours per query (k)
  int queries = 4096;  // kNN only
  int iters = 10;      // kMeans only
  bool sweep = false;
  std::string csv;  // append one line per run when set
};
Options parse_options(int argc, char** argv, const char* program);

// The paper's data sizes (Figure 12), run one after the other by --sweep.
inline constexpr int sweep_points[] = {2048, 4096, 8192, 16384, 32768, 65536};

// Calls body with the id of the tag called `name`; throws for an unknown name.
void with_tag(const std::string& name, const std::function<void(PolicyId)>& body);

}  // namespace egemm::cases
