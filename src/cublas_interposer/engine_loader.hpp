// libegemm_cublas_engine.so, loaded at the first call the interposer could take.
#pragma once

#include "src/cublas_interposer/engine_abi.h"

namespace egemm::interposer {

// The engine, or null where it does not load (then every call passes
// through; the reason is on stderr once and in the debug log). It is looked
// for beside libegemm_cublas.so, or where EGEMM_CUBLAS_ENGINE names it.
const egemm_cublas_engine* engine();

// Why engine() is null ("" when it is not).
const char* engine_failure();

}  // namespace egemm::interposer
