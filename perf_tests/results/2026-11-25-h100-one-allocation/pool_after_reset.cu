// Session 13 experiment: what cudaDeviceReset does to a memory pool made with
// cudaMemPoolCreate (EGEMM's workspace pool) and to the memory it holds.
//   nvcc -std=c++17 -o pool_after_reset pool_after_reset.cu; pool_after_reset malloc; pool_after_reset destroy
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

static void say(const char* what, cudaError_t e) { std::printf("%-58s %s\n", what, cudaGetErrorString(e)); }

static std::size_t free_mib() {
  std::size_t f = 0, t = 0;
  cudaMemGetInfo(&f, &t);
  return f >> 20;
}

// pool_after_reset malloc|destroy: what to try on the old pool after the reset (each may crash).
int main(int argc, char** argv) {
  const bool try_malloc = argc > 1 && argv[1][0] == 'm';
  cudaSetDevice(0);
  cudaFree(nullptr);
  std::printf("free at start: %zu MiB\n", free_mib());
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  say("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props));
  std::uint64_t keep = ~std::uint64_t{0};
  say("release threshold: keep everything", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
  void* p = nullptr;
  say("cudaMallocFromPoolAsync 4 GiB", cudaMallocFromPoolAsync(&p, std::size_t{4} << 30, pool, nullptr));
  say("cudaFreeAsync", cudaFreeAsync(p, nullptr));
  say("cudaDeviceSynchronize", cudaDeviceSynchronize());
  std::printf("free with the pool holding 4 GiB: %zu MiB\n", free_mib());
  say("cudaDeviceReset", cudaDeviceReset());
  std::printf("free after the reset: %zu MiB\n", free_mib());
  std::uint64_t reserved = 0;
  say("cudaMemPoolGetAttribute(reserved) on the old pool", cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  std::printf("  old pool reports %llu MiB reserved\n", static_cast<unsigned long long>(reserved >> 20));
  if (try_malloc) {
    say("cudaMallocFromPoolAsync 64 MiB from the old pool", cudaMallocFromPoolAsync(&p, std::size_t{64} << 20, pool, nullptr));
  } else {
    say("cudaMemPoolDestroy(old pool)", cudaMemPoolDestroy(pool));
  }
  say("cudaGetLastError", cudaGetLastError());
  std::printf("free at the end: %zu MiB\n", free_mib());
  return 0;
}
