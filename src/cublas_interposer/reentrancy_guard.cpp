// The thread's nesting depth (reentrancy_guard.hpp).
#include "src/cublas_interposer/reentrancy_guard.hpp"

namespace egemm::interposer {

thread_local int nesting_depth __attribute__((tls_model("initial-exec"))) = 0;

}  // namespace egemm::interposer
