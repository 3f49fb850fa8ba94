// The median of a set of timings: the middle value, or the mean of the two
// middle ones for an even count (the upper one alone biased every figure up).
#pragma once

#include <algorithm>
#include <vector>

namespace egemm::perf {

inline double median_of(std::vector<double> t) {
  if (t.empty()) return 0.0;
  std::sort(t.begin(), t.end());
  const std::size_t h = t.size() / 2;
  return t.size() % 2 != 0 ? t[h] : 0.5 * (t[h - 1] + t[h]);
}

}  // namespace egemm::perf
