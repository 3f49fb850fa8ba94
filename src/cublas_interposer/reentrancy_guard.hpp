// Which cuBLAS calls a thread makes from inside cuBLAS or EGEMM: those go straight to the real cuBLAS.
#pragma once

namespace egemm::interposer {

// Nonzero while this thread is inside the real cuBLAS or inside EGEMM on the
// interposer's behalf. cuBLAS calls its own exported cublasLtMatmul (cublasSgemm
// does), and EGEMM calls cublasSgemm_v2 and cublasLtMatmul (its SGEMM hand-off):
// in a process where the interposer is preloaded those calls reach the
// interposer again, and must be forwarded untouched, never taken (that would
// recurse into EGEMM). Initial-exec TLS: one load from the thread pointer,
// no __tls_get_addr call on the hot path.
extern thread_local int nesting_depth __attribute__((tls_model("initial-exec")));

inline bool nested_call() { return nesting_depth != 0; }

// Marks this thread as inside cuBLAS or EGEMM for the scope's lifetime.
class Inside {
 public:
  Inside() { ++nesting_depth; }
  ~Inside() { --nesting_depth; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;
};

}  // namespace egemm::interposer
