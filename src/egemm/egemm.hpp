// EGEMM: FP32-accurate gemm on NVIDIA tensor cores. Umbrella header of the
// core library (target EGEMM::egemm). The Kokkos entry point is
// <egemm/kokkos.hpp> (target EGEMM::kokkos).
#pragma once

#include "egemm/errors.hpp"
#include "egemm/gemm.hpp"
#include "egemm/path_selection.hpp"
#include "egemm/policy.hpp"
#include "egemm/reference.hpp"
