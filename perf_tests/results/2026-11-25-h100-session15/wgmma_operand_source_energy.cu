// Would the kernel draw less power with op(A) from registers? EmulatedFP32's
// consumer issues, per k16 slice, three wgmmas hi_A hi_B, hi_A lo_B, lo_A hi_B
// with both operands read from shared memory (SS): hi_A is read twice. With A
// from registers (RS) each A piece is read from shared memory once, by
// ldmatrix, and the registers feed two wgmmas. This loop runs each pattern
// from shared memory filled with random FP16 (no global traffic; layouts are
// irrelevant to the energy), FP32 accumulators, for `seconds` per pattern in
// interleaved rounds:
//   ss3: 3 x wgmma m64n128k16, A and B from shared memory (the kernel today)
//   rs3: ldmatrix x4 of hi_A and lo_A, then 3 x wgmma m64n128k16 with A from registers
//        (one slice's registers double-buffered: what fits beside the kernel's 192
//        accumulator registers)
//   rs3_tile: the same with a whole k-tile's A (4 slices, 32 registers) double-buffered
//        (64 registers: more than the kernel has; to see RS at full issue rate)
// Build: nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a wgmma_operand_source_energy.cu -o wgmma_operand_source_energy
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
__device__ __forceinline__ void mma_ss(float (&d)[64], std::uint64_t da, std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, 1, 1, 1, 0, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) : "l"(da), "l"(db));
}
__device__ __forceinline__ void mma_rs(float (&d)[64], const std::uint32_t (&a)[4], std::uint64_t db) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, 1, 1, 1, 0;\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}
__device__ __forceinline__ void ldmatrix_x4(std::uint32_t (&r)[4], std::uint32_t addr) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr));
}
__device__ __forceinline__ void fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wait() { asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory"); }

// 256 threads, two consumer warpgroups (one block per SM, like the kernel); shared memory: A hi, A lo (128 x 64
// halves each: 64 rows per warpgroup), B hi, B lo (128 x 64 each).
template <int Mode>  // 0 ss3, 1 rs3, 2 rs3_tile
__global__ void __launch_bounds__(256) spin(const __half* src, long iterations, float* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = (unsigned char*)(((std::uintptr_t)smem_raw + 1023) & ~(std::uintptr_t)1023);
  __half* tile = (__half*)smem;
  for (int i = threadIdx.x; i < 4 * 128 * 64; i += blockDim.x) tile[i] = src[(blockIdx.x * 32768 + i) % (1 << 22)];
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const int wg = threadIdx.x / 128, lane = threadIdx.x % 32, warp = threadIdx.x % 128 / 32;
  const std::uint32_t base = (std::uint32_t)__cvta_generic_to_shared(smem);
  const std::uint32_t a_hi = base + wg * 64 * 128, a_lo = base + 16384 + wg * 64 * 128;
  const std::uint32_t b_hi = base + 32768, b_lo = base + 49152;
  float d[64] = {};
  if constexpr (Mode == 2) {
    std::uint32_t hi[2][4][4], lo[2][4][4];
    const std::uint32_t row = (warp * 16 + lane % 16) * 128 + (lane / 16) * 16;
#pragma unroll
    for (int s = 0; s < 4; ++s) ldmatrix_x4(hi[0][s], a_hi + row + 32 * s), ldmatrix_x4(lo[0][s], a_lo + row + 32 * s);
    for (long it = 0; it < iterations; it += 2) {
#pragma unroll
      for (int t = 0; t < 2; ++t) {  // k-tile t of two, in register buffer t
        fence();
#pragma unroll
        for (int s = 0; s < 4; ++s) {
          mma_rs(d, hi[t][s], desc(b_hi) + 2 * s);
          mma_rs(d, hi[t][s], desc(b_lo) + 2 * s);
          mma_rs(d, lo[t][s], desc(b_hi) + 2 * s);
        }
        commit();
        wait<1>();  // the k-tile before is done: buffer 1 - t is free
#pragma unroll
        for (int s = 0; s < 4; ++s)
          ldmatrix_x4(hi[1 - t][s], a_hi + row + 32 * s), ldmatrix_x4(lo[1 - t][s], a_lo + row + 32 * s);
      }
    }
  } else if constexpr (Mode == 1) {
    std::uint32_t hi[2][4], lo[2][4];
    // A warp's 16 rows of its warpgroup's 64: lane l gives row l % 16 and the k half l / 16.
    const std::uint32_t row = (warp * 16 + lane % 16) * 128 + (lane / 16) * 16;
    ldmatrix_x4(hi[0], a_hi + row);
    ldmatrix_x4(lo[0], a_lo + row);
    for (long it = 0; it < iterations; ++it) {
#pragma unroll
      for (int s = 0; s < 4; ++s) {
        const int cur = s % 2, nxt = 1 - cur;
        fence();
        mma_rs(d, hi[cur], desc(b_hi) + 2 * s);
        mma_rs(d, hi[cur], desc(b_lo) + 2 * s);
        mma_rs(d, lo[cur], desc(b_hi) + 2 * s);
        commit();
        wait<1>();  // the slice before this one is done: its registers are free
        ldmatrix_x4(hi[nxt], a_hi + row + 32 * ((s + 1) % 4));
        ldmatrix_x4(lo[nxt], a_lo + row + 32 * ((s + 1) % 4));
      }
    }
  } else {
    for (long it = 0; it < iterations; ++it) {
#pragma unroll
      for (int s = 0; s < 4; ++s) {
        fence();
        mma_ss(d, desc(a_hi) + 2 * s, desc(b_hi) + 2 * s);
        mma_ss(d, desc(a_hi) + 2 * s, desc(b_lo) + 2 * s);
        mma_ss(d, desc(a_lo) + 2 * s, desc(b_hi) + 2 * s);
        commit();
        wait<1>();
      }
    }
  }
  wait<0>();
  float sum = 0.0f;
  for (int i = 0; i < 64; ++i) sum += d[i];
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
  // One block (two consumer warpgroups) per SM, as the kernel runs: shared
  // memory for more than half the SM keeps a second block off.
  const int blocks = sms, smem = 116 * 1024;
  __half* src; float* out;
  CK(cudaMalloc(&src, (1 << 22) * sizeof(__half))); CK(cudaMalloc(&out, blocks * 256 * sizeof(float)));
  fill<<<1024, 256>>>(src, 1 << 22); CK(cudaGetLastError());
  CK(cudaFuncSetAttribute(spin<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(spin<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const long iterations = 8000;  // per launch: 4 slices of 3 wgmmas each (even: rs3_tile takes two a turn)
  const double flops = 2.0 * 64 * 128 * 16 * 12 * iterations * 2 * blocks;
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::printf("round,pattern,start_unix,end_unix,launches,median_ms,tflops\n");
  static float times[100000];
  for (int r = 0; r < rounds; ++r)
    for (int mode = 0; mode < 3; ++mode) {
      int count = 0;
      const double start = wall();
      while (wall() - start < seconds && count < 100000) {
        CK(cudaEventRecord(e0));
        if (mode == 0) spin<0><<<blocks, 256, smem>>>(src, iterations, out);
        else if (mode == 1) spin<1><<<blocks, 256, smem>>>(src, iterations, out);
        else spin<2><<<blocks, 256, smem>>>(src, iterations, out);
        CK(cudaGetLastError());
        CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&times[count++], e0, e1));
      }
      const double end = wall();
      int h = count / 2, m = count - h;  // median of the second half
      for (int i = 0; i < m; ++i) for (int j = i + 1; j < m; ++j) if (times[h + j] < times[h + i]) { float t = times[h + i]; times[h + i] = times[h + j]; times[h + j] = t; }
      const double med = times[h + m / 2];
      std::printf("%d,%s,%.3f,%.3f,%d,%.4f,%.1f\n", r, mode == 0 ? "ss3" : mode == 1 ? "rs3" : "rs3_tile", start, end, count, med, flops / (med * 1e-3) / 1e12);
      std::fflush(stdout);
    }
  return 0;
}
