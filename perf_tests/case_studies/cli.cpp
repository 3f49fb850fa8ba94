#include "cli.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

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

}  // namespace egemm::cases
