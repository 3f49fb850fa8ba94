// The tensor cores' draw with an FP16 against an FP32 accumulator, without
// cuBLAS's other differences: every warpgroup issues wgmma m64n128k16 from
// shared memory filled with random FP16 (no global traffic), chained into
// one accumulator, for `seconds` per configuration in interleaved rounds.
// Same instruction count, same operands; only the accumulator's type
// differs. Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_accumulator_energy.cu -o wgmma_accumulator_energy
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#define CK(x) do { cudaError_t err = (x); if (err != cudaSuccess) { std::fprintf(stderr, "CUDA %s at line %d\n", cudaGetErrorString(err), __LINE__); std::exit(1); } } while (0)

__device__ __forceinline__ std::uint64_t desc(std::uint32_t a) {
  return ((a & 0x3FFFF) >> 4) | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

__device__ __forceinline__ void mma_f32(float (&d)[64], std::uint64_t da, std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, 1, 1, 1, 0, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) : "l"(da), "l"(db));
}
__device__ __forceinline__ void mma_f16(std::uint32_t (&d)[32], std::uint64_t da, std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, 1, 1, 1, 0, 0;\n"
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]), "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]), "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]), "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31]) : "l"(da), "l"(db));
}

// 256 threads: two warpgroups, each on its own 64 rows of A and all of B.
template <bool F16>
__global__ void __launch_bounds__(256) spin(const __half* src, long iterations, float* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = (unsigned char*)(((std::uintptr_t)smem_raw + 1023) & ~(std::uintptr_t)1023);
  __half* tile = (__half*)smem;  // A: 128 x 64, B: 128 x 64 halves
  for (int i = threadIdx.x; i < 2 * 128 * 64; i += blockDim.x) tile[i] = src[(blockIdx.x * 16384 + i) % (1 << 22)];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int wg = threadIdx.x / 128;
  const std::uint32_t base = (std::uint32_t)__cvta_generic_to_shared(smem);
  const std::uint64_t da = desc(base + wg * 64 * 128), db = desc(base + 128 * 128);
  float sum = 0.0f;
  if constexpr (F16) {
    std::uint32_t d[32] = {};
    for (long it = 0; it < iterations; ++it) {
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int s = 0; s < 4; ++s) mma_f16(d, da + 2 * s, db + 2 * s);
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    for (int i = 0; i < 32; ++i) sum += __low2float(*(__half2*)&d[i]);
  } else {
    float d[64] = {};
    for (long it = 0; it < iterations; ++it) {
      asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
      for (int s = 0; s < 4; ++s) mma_f32(d, da + 2 * s, db + 2 * s);
      asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
      asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    for (int i = 0; i < 64; ++i) sum += d[i];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

__global__ void fill(__half* x, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    unsigned long long z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z ^= z >> 31; z *= 0xBF58476D1CE4E5B9ull; z ^= z >> 27; z *= 0x94D049BB133111EBull; z ^= z >> 31;
    x[i] = __float2half_rn((float)((z >> 40) * (1.0 / 16777216.0)) * 2.f - 1.f);
  }
}

static double wall() { timespec t; clock_gettime(CLOCK_REALTIME, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int blocks = 2 * sms, smem = 2 * 128 * 128 + 1024;
  __half* src; float* out;
  CK(cudaMalloc(&src, (1 << 22) * sizeof(__half))); CK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  fill<<<1024, 256>>>(src, 1 << 22); CK(cudaGetLastError());
  CK(cudaFuncSetAttribute(spin<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const long iterations = 20000;  // per launch: 4 wgmmas each
  const double flops = 2.0 * 64 * 128 * 16 * 4 * iterations * 2 * blocks;
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("round,accumulator,start_unix,end_unix,launches,median_ms,tflops\n");
  for (int r = 0; r < rounds; ++r)
    for (int f16 = 0; f16 < 2; ++f16) {
      float times[100000]; int count = 0;
      const double start = wall();
      while (wall() - start < seconds && count < 100000) {
        CK(cudaEventRecord(e0));
        if (f16) spin<true><<<blocks, 256, smem>>>(src, iterations, out);
        else spin<false><<<blocks, 256, smem>>>(src, iterations, out);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&times[count++], e0, e1));
      }
      const double end = wall();
      // median of the second half
      int h = count / 2, m = count - h;
      for (int i = 0; i < m; ++i) for (int j = i + 1; j < m; ++j) if (times[h + j] < times[h + i]) { float t = times[h + i]; times[h + i] = times[h + j]; times[h + j] = t; }
      const double med = times[h + m / 2];
      std::printf("%d,%s,%.3f,%.3f,%d,%.4f,%.1f\n", r, f16 ? "f16" : "f32", start, end, count, med, flops / (med * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
