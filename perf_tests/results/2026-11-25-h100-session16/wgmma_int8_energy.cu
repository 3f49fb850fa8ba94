// Joules per multiply-add of the Hopper tensor cores on FP16 against INT8
// (and FP8 e4m3) operands, under the H100's 700 W cap: the question whether
// an FP32 emulation from six INT8 products (three 8-bit slices per operand,
// int8_slices_accuracy.cpp) could beat the three FP16 products EmulatedFP32
// issues. Every warpgroup issues wgmma m64nNk(32 bytes) from shared memory
// filled with random bytes (no global traffic), chained into one accumulator
// (FP32, or S32 for INT8), for `seconds` per configuration in interleaved
// rounds. Each instruction reads the same bytes in every configuration; an
// INT8 or FP8 one does twice the multiply-adds of an FP16 one. Output column
// "tflops": tera-operations (two per multiply-add) a second, for every type.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_int8_energy.cu -o wgmma_int8_energy
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#define CK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { std::fprintf(stderr, "CUDA %s at line %d\n", cudaGetErrorString(err), __LINE__); std::exit(1); } } while (0)

// 128-byte swizzled K-major tile, 8-row core matrices 1024 bytes apart.
__device__ __forceinline__ std::uint64_t desc(std::uint32_t a) {
  return ((a & 0x3FFFF) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

#define R8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
#define F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define REGS64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

enum class Kind { f16, s8, u8s8, e4m3 };
const char* name(Kind k) { return k == Kind::f16 ? "f16" : k == Kind::s8 ? "s8" : k == Kind::u8s8 ? "u8xs8" : "e4m3"; }

template <Kind K>
__device__ __forceinline__ void mma(float (&d)[64], std::uint64_t da, std::uint64_t db) {
  if constexpr (K == Kind::f16)
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " REGS64 ", %64, %65, 1, 1, 1, 0, 0;\n"
                 : F8(0), F8(8), F8(16), F8(24), F8(32), F8(40), F8(48), F8(56) : "l"(da), "l"(db));
  else
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 " REGS64 ", %64, %65, 1, 1, 1;\n"
                 : F8(0), F8(8), F8(16), F8(24), F8(32), F8(40), F8(48), F8(56) : "l"(da), "l"(db));
}
template <Kind K>
__device__ __forceinline__ void mma(std::uint32_t (&d)[64], std::uint64_t da, std::uint64_t db) {
  if constexpr (K == Kind::s8)
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 " REGS64 ", %64, %65, 1;\n"
                 : R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56) : "l"(da), "l"(db));
  else
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k32.s32.u8.s8 " REGS64 ", %64, %65, 1;\n"
                 : R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56) : "l"(da), "l"(db));
}

// 256 threads: two warpgroups, each on its own 64 rows of A and all 128 of B;
// A and B 128 bytes a row. Four wgmmas (32 bytes of k each) per commit group.
template <Kind K>
__global__ void __launch_bounds__(256) spin(const std::uint8_t* src, long iterations, float* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = (unsigned char*)(((std::uintptr_t)smem_raw + 1023) & ~(std::uintptr_t)1023);
  for (int i = threadIdx.x; i < 2 * 128 * 128; i += blockDim.x) smem[i] = src[(blockIdx.x * 32768 + i) % (1 << 23)];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int wg = threadIdx.x / 128;
  const std::uint32_t base = (std::uint32_t)__cvta_generic_to_shared(smem);
  const std::uint64_t da = desc(base + wg * 64 * 128), db = desc(base + 128 * 128);
  using Acc = std::conditional_t<K == Kind::s8 || K == Kind::u8s8, std::uint32_t, float>;
  Acc d[64] = {};
  for (long it = 0; it < iterations; ++it) {
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int s = 0; s < 4; ++s) mma<K>(d, da + 2 * s, db + 2 * s);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
  }
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i) sum += (float)d[i];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// Random bytes; as FP16 pairs they are mapped to finite values in [-1, 1]
// (random exponent bits would make infinities and NaNs), as e4m3 every byte
// but 0x7F/0xFF (NaN) is finite.
__global__ void fill(std::uint8_t* x, size_t n, bool half) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 2; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z ^= z >> 31; z *= 0xBF58476D1CE4E5B9ull; z ^= z >> 27; z *= 0x94D049BB133111EBull; z ^= z >> 31;
    if (half) {
      reinterpret_cast<__half*>(x)[i] = __float2half_rn((float)((z >> 40) * (1.0 / 16777216.0)) * 2.f - 1.f);
    } else {
      std::uint8_t lo = z & 0xFF, hi = (z >> 8) & 0xFF;
      if ((lo & 0x7F) == 0x7F) lo ^= 1;
      if ((hi & 0x7F) == 0x7F) hi ^= 1;
      x[2 * i] = lo; x[2 * i + 1] = hi;
    }
  }
}

static double wall() { timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

template <Kind K>
void launch(int blocks, int smem, const std::uint8_t* src, long iterations, float* out) {
  spin<K><<<blocks, 256, smem>>>(src, iterations, out);
}

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = 2 * sms, smem = 2 * 128 * 128 + 1024;
  std::uint8_t *halves, *bytes; float* out;
  CK(cudaMalloc(&halves, 1 << 23)); CK(cudaMalloc(&bytes, 1 << 23)); CK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  fill<<<1024, 256>>>(halves, 1 << 23, true); fill<<<1024, 256>>>(bytes, 1 << 23, false); CK(cudaGetLastError());
  CK(cudaFuncSetAttribute(spin<Kind::f16>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<Kind::s8>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<Kind::u8s8>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<Kind::e4m3>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const long iterations = 20000;  // per launch: 4 wgmmas each
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("round,config,start_unix,end_unix,launches,median_ms,tflops\n");
  const Kind kinds[] = {Kind::f16, Kind::s8, Kind::u8s8, Kind::e4m3};
  for (int r = 0; r < rounds; ++r)
    for (Kind k : kinds) {
      const int kdepth = k == Kind::f16 ? 16 : 32;
      const double ops = 2.0 * 64 * 128 * kdepth * 4 * iterations * 2 * blocks;
      std::vector<float> times;
      const double start = wall();
      while (wall() - start < seconds) {
        CK(cudaEventRecord(e0));
        const std::uint8_t* src = k == Kind::f16 ? halves : bytes;
        switch (k) {
          case Kind::f16: launch<Kind::f16>(blocks, smem, src, iterations, out); break;
          case Kind::s8: launch<Kind::s8>(blocks, smem, src, iterations, out); break;
          case Kind::u8s8: launch<Kind::u8s8>(blocks, smem, src, iterations, out); break;
          case Kind::e4m3: launch<Kind::e4m3>(blocks, smem, src, iterations, out); break;
        }
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); times.push_back(ms);
      }
      const double end = wall();
      std::vector<float> tail(times.begin() + times.size() / 2, times.end());  // the second half: the cap has acted
      std::sort(tail.begin(), tail.end());
      const double med = tail[tail.size() / 2];
      std::printf("%d,%s,%.3f,%.3f,%zu,%.4f,%.1f\n", r, name(k), start, end, times.size(), med, ops / (med * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
