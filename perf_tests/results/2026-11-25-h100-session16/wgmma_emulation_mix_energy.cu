// The inner loop of each emulation scheme under the H100's 700 W cap, from
// shared memory (no global traffic): how many emulated FP32 multiply-adds a
// second does each sustain?
//   fp16x3: EmulatedFP32's k-tile as the Hopper kernel issues it: 64 values of
//           k in four m64n128k16 wgmmas per product; hi*hi into a fresh `step`
//           sum, committed alone, then hi*lo and lo*hi into the correction sum,
//           and step added into the main sum with round-to-nearest adds once
//           the main group completed (three 64-float sums).
//   int8x6: three balanced 8-bit slices per operand (int8_emulation_cublas.cu):
//           128 values of k in four m64n128k32 wgmmas per product; d0*d0 into
//           P0, d0*d1 and d1*d0 into P1, d1*d1, d0*d2 and d2*d0 into P2
//           (three 64-int32 sums; exact while k <= 43690: a kernel would run
//           longer sums as chunks of k, so none is folded here).
// A block is the kernel's 128 x 128 tile: two consumer warpgroups, each its
// own 64 rows of every A piece and all 128 rows of every B piece, 1 block
// per SM (three 64-register sums a thread, as in the kernel). The pieces are
// random: FP16 hi and lo both in [-1, 1] (the scaled split gives lo the
// range of hi), INT8 slices uniform bytes.
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_emulation_mix_energy.cu -o wgmma_emulation_mix_energy
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#define CK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { std::fprintf(stderr, "CUDA %s at line %d\n", cudaGetErrorString(err), __LINE__); std::exit(1); } } while (0)

__device__ __forceinline__ std::uint64_t desc(std::uint32_t a) {
  return ((a & 0x3FFFF) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

#define R8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
#define F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define REGS64 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}"

__device__ __forceinline__ void mma_f16(float (&d)[64], std::uint64_t da, std::uint64_t db, int acc) {
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " REGS64 ", %64, %65, p, 1, 1, 0, 0;\n}\n"
               : F8(0), F8(8), F8(16), F8(24), F8(32), F8(40), F8(48), F8(56) : "l"(da), "l"(db), "r"(acc));
}
__device__ __forceinline__ void mma_s8(std::int32_t (&d)[64], std::uint64_t da, std::uint64_t db, int acc) {
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %66, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 " REGS64 ", %64, %65, p;\n}\n"
               : R8(0), R8(8), R8(16), R8(24), R8(32), R8(40), R8(48), R8(56) : "l"(da), "l"(db), "r"(acc));
}
template <int N> __device__ __forceinline__ void keep(float (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+f"(d[i])::"memory");
}
template <int N> __device__ __forceinline__ void keep(std::int32_t (&d)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) asm volatile("" : "+r"(d[i])::"memory");
}
__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }

// One piece's 128-row tile (A: 2 x 64 rows, B: 128 rows) of 128 bytes a row.
constexpr int kPieceBytes = 128 * 128;

// Four 32-byte k slices of one product into d.
template <class Acc, class Mma>
__device__ __forceinline__ void product(Acc& d, std::uint64_t da, std::uint64_t db, int fresh, Mma mma) {
  mma(d, da, db, fresh ? 0 : 1);
#pragma unroll
  for (int s = 1; s < 4; ++s) mma(d, da + 2 * s, db + 2 * s, 1);
}

template <bool Int8>
__global__ void __launch_bounds__(256, 1) spin(const std::uint8_t* src, long k_tiles, float* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = (unsigned char*)(((std::uintptr_t)smem_raw + 1023) & ~(std::uintptr_t)1023);
  constexpr int pieces = Int8 ? 3 : 2;
  // A pieces at [p * kPieceBytes], B pieces at [(pieces + p) * kPieceBytes].
  for (int i = threadIdx.x; i < 2 * pieces * kPieceBytes; i += blockDim.x)
    smem[i] = src[(blockIdx.x * 65536 + (Int8 ? 0 : (i / kPieceBytes % pieces) * (1 << 22)) + i) % (1 << 23)];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int wg = threadIdx.x / 128;
  const std::uint32_t base = (std::uint32_t)__cvta_generic_to_shared(smem);
  std::uint64_t da[pieces], db[pieces];
  for (int p = 0; p < pieces; ++p) {
    da[p] = desc(base + p * kPieceBytes + wg * 64 * 128);
    db[p] = desc(base + (pieces + p) * kPieceBytes);
  }
  float result = 0.0f;
  if constexpr (!Int8) {
    float main[64] = {}, step[64], corr[64];
    for (long kt = 0; kt < k_tiles; ++kt) {
      keep(main); keep(step); keep(corr);
      fence();
      product(step, da[0], db[0], 1, mma_f16);
      commit();
      product(corr, da[0], db[1], kt == 0, mma_f16);
      product(corr, da[1], db[0], 0, mma_f16);
      commit();
      wait<1>();
      keep(step); keep(main);
#pragma unroll
      for (int v = 0; v < 64; ++v) main[v] = __fadd_rn(main[v], step[v]);
      keep(main); keep(step); keep(corr);
    }
    wait<0>();
    keep(corr);
    for (int v = 0; v < 64; ++v) result += main[v] + corr[v] * 0x1p-11f;
  } else {
    std::int32_t p0[64], p1[64], p2[64];
    for (long kt = 0; kt < k_tiles; ++kt) {
      const int fresh = kt == 0;
      keep(p0); keep(p1); keep(p2);
      fence();
      product(p0, da[0], db[0], fresh, mma_s8);
      product(p1, da[0], db[1], fresh, mma_s8);
      product(p1, da[1], db[0], 0, mma_s8);
      product(p2, da[1], db[1], fresh, mma_s8);
      product(p2, da[0], db[2], 0, mma_s8);
      product(p2, da[2], db[0], 0, mma_s8);
      commit();
      wait<1>();
      keep(p0); keep(p1); keep(p2);
    }
    wait<0>();
    keep(p0); keep(p1); keep(p2);
    for (int v = 0; v < 64; ++v) result += (float)p0[v] + 0x1p-8f * (float)p1[v] + 0x1p-16f * (float)p2[v];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = result;
}

__global__ void fill(std::uint8_t* x, size_t n) {
  // x[0, n): FP16 values in [-1, 1]; x[n, 2n): random bytes (the INT8 slices).
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 2; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z ^= z >> 31; z *= 0xBF58476D1CE4E5B9ull; z ^= z >> 27; z *= 0x94D049BB133111EBull; z ^= z >> 31;
    reinterpret_cast<__half*>(x)[i] = __float2half_rn((float)((z >> 40) * (1.0 / 16777216.0)) * 2.f - 1.f);
    reinterpret_cast<std::uint16_t*>(x + n)[i] = (std::uint16_t)z;
  }
}

static double wall() { timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = sms;
  std::uint8_t* src; float* out;
  CK(cudaMalloc(&src, 2 << 23)); CK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  fill<<<1024, 256>>>(src, 1 << 23); CK(cudaGetLastError());
  const int smem_f16 = 4 * kPieceBytes + 1024, smem_s8 = 6 * kPieceBytes + 1024;
  CK(cudaFuncSetAttribute(spin<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_f16));
  CK(cudaFuncSetAttribute(spin<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_s8));
  const long k_tiles_f16 = 20000, k_tiles_s8 = 10240;  // 1.28 and 1.31 million values of k a launch
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("round,config,start_unix,end_unix,launches,median_ms,tflops\n");
  for (int r = 0; r < rounds; ++r)
    for (int int8 = 0; int8 < 2; ++int8) {
      const long k_tiles = int8 ? k_tiles_s8 : k_tiles_f16;
      const double emulated_flops = 2.0 * 128 * 128 * (k_tiles * (int8 ? 128 : 64)) * blocks;
      std::vector<float> times;
      const double start = wall();
      while (wall() - start < seconds) {
        CK(cudaEventRecord(e0));
        if (int8) spin<true><<<blocks, 256, smem_s8>>>(src + (1 << 23), k_tiles, out);
        else spin<false><<<blocks, 256, smem_f16>>>(src, k_tiles, out);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); times.push_back(ms);
      }
      const double end = wall();
      std::vector<float> tail(times.begin() + times.size() / 2, times.end());
      std::sort(tail.begin(), tail.end());
      const double med = tail[tail.size() / 2];
      std::printf("%d,%s,%.3f,%.3f,%zu,%.4f,%.1f\n", r, int8 ? "int8x6" : "fp16x3", start, end, times.size(), med,
                  emulated_flops / (med * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
