#include "csv.hpp"

#include <fstream>

#include "views.hpp"

namespace egemm::cases {

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
