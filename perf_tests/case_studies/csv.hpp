// One CSV line per run, so summarize.py can collect results of many runs.
#pragma once

#include <string>

#include "cli.hpp"

namespace egemm::cases {

// Appends `program,space,line` to o.csv (nothing when unset), writing the
// header first when the file is new or empty.
void append_csv(const Options& o, const std::string& program, const std::string& line);

}  // namespace egemm::cases
