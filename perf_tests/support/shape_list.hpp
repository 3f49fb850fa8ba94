// Product shapes on a perf tool's command line: "MxNxK[,MxNxK...]" in, the
// same spelling out. Shape: any struct with int members m, n, k.
#pragma once

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace egemm::perf {

template <class Shape>
std::vector<Shape> parse_shapes(const std::string& list, const char* option = "--shapes") {
  std::vector<Shape> shapes;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (item.empty()) continue;
    Shape s{};
    char tail = 0;
    if (std::sscanf(item.c_str(), "%dx%dx%d%c", &s.m, &s.n, &s.k, &tail) != 3 || s.m <= 0 || s.n <= 0 || s.k <= 0)
      throw std::invalid_argument(std::string(option) + ": '" + item + "' is not MxNxK with positive sizes");
    shapes.push_back(s);
  }
  if (shapes.empty()) throw std::invalid_argument(std::string(option) + ": no shape given");
  return shapes;
}

template <class Shape>
std::string shape_text(const Shape& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

}  // namespace egemm::perf
