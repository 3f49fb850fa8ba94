// The interposer's debug log (EGEMM_LOG=debug, libegemm's mechanism): one line per call, taken or passed through and why.
#pragma once

#include <atomic>
#include <cstdint>

#include "egemm/log.hpp"

namespace egemm::interposer {

// "cublas: <entry> NT m=.. n=.. k=.. [batch=..] -> EGEMM <tag>".
void log_taken(const char* entry, char ta, char tb, long long m, long long n, long long k, long long batch,
               const char* tag);

// "cublas: <entry> [NT m=.. n=.. k=..] -> cuBLAS (<why>)"; the shape where it was read.
void log_passed(const char* entry, const char* why);
void log_passed(const char* entry, char ta, char tb, long long m, long long n, long long k, long long batch,
                const char* why);

// Calls (or batched items) EGEMM ran, process-wide; exported for tests and
// client scripts as egemm_cublas_taken_calls(). Relaxed: a count, no ordering.
extern std::atomic<std::uint64_t> taken_calls;

}  // namespace egemm::interposer
