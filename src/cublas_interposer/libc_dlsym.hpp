// The C library's dlsym, for the interposer's own lookups: its exported dlsym (dlsym_hook.cpp) would answer them with its own entry points.
#pragma once

namespace egemm::interposer {

using DlsymFunction = void* (*)(void*, const char*);

// libc's dlsym since glibc 2.34, libdl's before; found once with dlvsym.
DlsymFunction libc_dlsym();

}  // namespace egemm::interposer
