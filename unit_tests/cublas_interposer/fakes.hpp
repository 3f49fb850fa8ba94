// The fake cuBLAS and the fake engine the interposer's host tests run it against: what each recorded.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <cublasLt.h>
#include <cublas_v2.h>

namespace fake {

// One call: the entry point's name and every argument as 64 bits (pointers,
// integers, enums; floats and doubles by their bits).
struct Call {
  std::string entry;
  std::vector<std::uint64_t> args;
};

template <class T>
std::uint64_t bits(T v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v < sizeof u ? sizeof v : sizeof u);
  return u;
}
template <class... T>
std::vector<std::uint64_t> all_bits(T... v) {
  return {bits(v)...};
}

// What a handle holds in the fake cuBLAS; a cublasHandle_t points at one.
struct Handle {
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cudaStream_t stream = nullptr;
};
inline cublasHandle_t as_handle(Handle& h) { return reinterpret_cast<cublasHandle_t>(&h); }

// The calls that reached the fake cuBLAS / cuBLASLt (libegemm_fake_cublas.so).
std::vector<Call>& cublas_calls();
// The calls the fake engine's gemm received (libegemm_fake_engine.so), and
// how many of its takes() queries there were.
std::vector<Call>& engine_calls();
int& engine_queries();

// Recording on (the default) or off, for timing the calls alone.
void set_recording(bool on);
// The fake's cublasGemmEx body, called directly (not through the symbol, which the interposer takes).
using GemmExFunction = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                          const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                          const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
GemmExFunction gemm_ex_direct();

// The fake engine takes a shape when m >= 64 and n >= 64, and its gemm fails when m == 77.
inline constexpr long long engine_minimum = 64;
inline constexpr long long engine_failing_m = 77;

}  // namespace fake
