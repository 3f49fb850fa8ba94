// Portability macros shared by host and device code.
#pragma once

#if defined(__CUDACC__)
#define EGEMM_HOST_DEVICE __host__ __device__
#else
#define EGEMM_HOST_DEVICE
#endif

#define EGEMM_INLINE EGEMM_HOST_DEVICE inline
