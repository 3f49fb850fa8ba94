// Builds the interposer's log lines only when EGEMM_LOG=debug is on.
#include "src/cublas_interposer/call_log.hpp"

#include <string>

namespace egemm::interposer {
namespace {

std::string shape(char ta, char tb, long long m, long long n, long long k, long long batch) {
  std::string s = std::string(1, ta) + tb + " m=" + std::to_string(m) + " n=" + std::to_string(n) +
                  " k=" + std::to_string(k);
  if (batch != 1) s += " batch=" + std::to_string(batch);
  return s;
}

}  // namespace

std::atomic<std::uint64_t> taken_calls{0};

void log_taken(const char* entry, char ta, char tb, long long m, long long n, long long k, long long batch,
               const char* tag) {
  log_debug([&] { return std::string("cublas: ") + entry + " " + shape(ta, tb, m, n, k, batch) + " -> EGEMM " + tag; });
}

void log_passed(const char* entry, const char* why) {
  log_debug([&] { return std::string("cublas: ") + entry + " -> cuBLAS (" + why + ")"; });
}

void log_passed(const char* entry, char ta, char tb, long long m, long long n, long long k, long long batch,
                const char* why) {
  log_debug([&] { return std::string("cublas: ") + entry + " " + shape(ta, tb, m, n, k, batch) + " -> cuBLAS (" + why + ")"; });
}

}  // namespace egemm::interposer

// For tests and scripts (ctypes): how many gemms EGEMM ran for the interposer.
extern "C" __attribute__((visibility("default"))) unsigned long long egemm_cublas_taken_calls(void) {
  return egemm::interposer::taken_calls.load(std::memory_order_relaxed);
}
