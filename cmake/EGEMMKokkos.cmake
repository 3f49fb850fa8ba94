# Finds Kokkos and Kokkos Kernels and gives them one name, EGEMM::KokkosKernels,
# whichever generation is installed:
#   Kokkos Kernels 4.x exports Kokkos::kokkoskernels;
#   the TriBITS-built 3.x (Debian's libtrilinos-kokkos-kernels-dev) exports
#   trilinos_kokkoskernels without include directories.
# Point CMake at a particular install with Kokkos_ROOT and KokkosKernels_ROOT.
# Installed with the package and included by EGEMMConfig.cmake as well.
# In an installed package (_egemm_kokkos_optional, set by EGEMMConfig.cmake)
# a missing Kokkos only leaves EGEMM::kokkos out: EGEMM::egemm needs none.
find_package(Kokkos HINTS ${_egemm_kokkos_hints})
if(Kokkos_FOUND)
  # Kokkos Kernels from Kokkos' own install unless told otherwise (KokkosKernels_ROOT,
  # CMAKE_PREFIX_PATH come first): hints are searched before the system's, so a
  # Kokkos_ROOT alone does not pair that Kokkos with the system's Kokkos Kernels.
  get_filename_component(_egemm_kokkos_prefix "${Kokkos_DIR}/../../.." ABSOLUTE)
  find_package(KokkosKernels HINTS ${_egemm_kokkos_kernels_hints} ${_egemm_kokkos_prefix})
endif()
if(NOT Kokkos_FOUND OR NOT KokkosKernels_FOUND)
  if(_egemm_kokkos_optional)
    message(STATUS "EGEMM: Kokkos or Kokkos Kernels not found; EGEMM::kokkos is unavailable (EGEMM::egemm needs neither)")
    return()
  endif()
  message(FATAL_ERROR "EGEMM: Kokkos or Kokkos Kernels not found. Point Kokkos_ROOT and KokkosKernels_ROOT at an "
                      "install, install Debian's libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev, or configure "
                      "with -DEGEMM_ENABLE_KOKKOS=OFF for the raw-pointer API alone.")
endif()
# Kokkos Kernels is released with Kokkos, version for version.
string(REGEX MATCH "^[0-9]+" _egemm_kokkos_major "${Kokkos_VERSION}")
string(REGEX MATCH "^[0-9]+" _egemm_kk_major "${KokkosKernels_VERSION}")
if(_egemm_kokkos_major AND _egemm_kk_major AND NOT _egemm_kokkos_major EQUAL _egemm_kk_major)
  message(FATAL_ERROR "EGEMM: Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}) with Kokkos Kernels ${KokkosKernels_VERSION} "
                      "(${KokkosKernels_DIR}): point KokkosKernels_ROOT at the Kokkos Kernels built with this Kokkos")
endif()
get_filename_component(_egemm_kokkos_configs "${Kokkos_DIR}/.." ABSOLUTE)
get_filename_component(_egemm_kk_configs "${KokkosKernels_DIR}/.." ABSOLUTE)
if(NOT _egemm_kokkos_configs STREQUAL _egemm_kk_configs)
  message(WARNING "EGEMM: Kokkos from ${Kokkos_DIR}, Kokkos Kernels from ${KokkosKernels_DIR}: if they are not "
                  "one build, point KokkosKernels_ROOT at the Kokkos Kernels built with this Kokkos.")
endif()

if(NOT TARGET EGEMM::KokkosKernels)
  add_library(EGEMM::KokkosKernels INTERFACE IMPORTED)
  if(TARGET Kokkos::kokkoskernels)
    target_link_libraries(EGEMM::KokkosKernels INTERFACE Kokkos::kokkoskernels)
  elseif(TARGET trilinos_kokkoskernels)
    target_link_libraries(EGEMM::KokkosKernels INTERFACE trilinos_kokkoskernels)
    target_include_directories(EGEMM::KokkosKernels INTERFACE ${KokkosKernels_INCLUDE_DIRS})
  else()
    message(FATAL_ERROR "EGEMM: found Kokkos Kernels but neither Kokkos::kokkoskernels nor trilinos_kokkoskernels")
  endif()
endif()

set(EGEMM_KOKKOS_SUMMARY " (Kokkos ${Kokkos_VERSION}, devices: ${Kokkos_DEVICES})")

# Sources that include Kokkos headers must be compiled in the language Kokkos
# was built for (CUDA when Kokkos was built with Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE
# and the CUDA backend). Usage: egemm_kokkos_sources(file.cpp ...)
function(egemm_kokkos_sources)
  if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CUDA)
  endif()
endfunction()

# Opt-in, off by default: route the stock float KokkosBlas::gemm on
# Kokkos::Cuda to an EGEMM tag through Kokkos Kernels' own TPL hook
# (egemm/kokkos/KokkosBlas3_gemm_tpl_spec_avail_egemm.hpp says how and why).
#   EGEMM_KOKKOS_GEMM_TPL = OFF | EmulatedFP32 | RoundSplit4 | TruncateSplit4 | Half | FullRangeTF32x3 | Int8Slices
#                          | NormwiseFP32
# When set, EGEMM::kokkos_gemm_tpl defines it and pre-includes <egemm/kokkos.hpp>
# into every source compiled for Kokkos: C++ requires every translation unit
# that calls the gemm to see the same specialisation, and a forgotten
# #include would silently keep the stock gemm in that file.
# Every emulated tag of egemm::all_policies (the host tests check the two agree).
set(EGEMM_ROUTABLE_TAGS EmulatedFP32 RoundSplit4 TruncateSplit4 Half FullRangeTF32x3 Int8Slices NormwiseFP32)

# Whether the Kokkos Kernels found was built with the cuBLAS TPL (which owns
# float gemm on CUDA): its config header says so, and it exports Kokkos::CUBLAS.
function(_egemm_kokkos_kernels_has_cublas out)
  set(_found FALSE)
  if(TARGET Kokkos::CUBLAS)
    set(_found TRUE)
  endif()
  if(TARGET Kokkos::kokkoskernels)
    get_target_property(_dirs Kokkos::kokkoskernels INTERFACE_INCLUDE_DIRECTORIES)
    foreach(_dir IN LISTS _dirs)
      if(EXISTS "${_dir}/KokkosKernels_config.h")
        file(STRINGS "${_dir}/KokkosKernels_config.h" _hit REGEX "^#define KOKKOSKERNELS_ENABLE_TPL_CUBLAS")
        if(_hit)
          set(_found TRUE)
        endif()
      endif()
    endforeach()
  endif()
  set(${out} ${_found} PARENT_SCOPE)
endfunction()

# The double counterpart: EGEMM_KOKKOS_DGEMM_TPL = OFF | EmulatedFP64 routes the
# stock double KokkosBlas::gemm on Kokkos::Cuda (egemm/kokkos/KokkosBlas3_dgemm_tpl_spec_egemm.hpp),
# independently of the float routing; both go through EGEMM::kokkos_gemm_tpl.
set(EGEMM_ROUTABLE_FP64_TAGS EmulatedFP64)

if((EGEMM_KOKKOS_GEMM_TPL OR EGEMM_KOKKOS_DGEMM_TPL) AND NOT TARGET EGEMM::kokkos_gemm_tpl)
  if(EGEMM_KOKKOS_GEMM_TPL AND NOT EGEMM_KOKKOS_GEMM_TPL IN_LIST EGEMM_ROUTABLE_TAGS)
    message(FATAL_ERROR "EGEMM_KOKKOS_GEMM_TPL=${EGEMM_KOKKOS_GEMM_TPL}: expected OFF or one of ${EGEMM_ROUTABLE_TAGS}")
  endif()
  if(EGEMM_KOKKOS_DGEMM_TPL AND NOT EGEMM_KOKKOS_DGEMM_TPL IN_LIST EGEMM_ROUTABLE_FP64_TAGS)
    message(FATAL_ERROR "EGEMM_KOKKOS_DGEMM_TPL=${EGEMM_KOKKOS_DGEMM_TPL}: expected OFF or one of ${EGEMM_ROUTABLE_FP64_TAGS}")
  endif()
  if(NOT Kokkos_DEVICES MATCHES "CUDA")
    message(FATAL_ERROR "EGEMM_KOKKOS_GEMM_TPL / EGEMM_KOKKOS_DGEMM_TPL route KokkosBlas::gemm on Kokkos::Cuda, but this Kokkos "
                        "(devices: ${Kokkos_DEVICES}) has no CUDA backend")
  endif()
  _egemm_kokkos_kernels_has_cublas(_egemm_kk_cublas)
  if(_egemm_kk_cublas)
    message(FATAL_ERROR "EGEMM_KOKKOS_GEMM_TPL: this Kokkos Kernels was built with the cuBLAS TPL, which already "
                        "owns KokkosBlas::gemm for float on CUDA. Use a Kokkos Kernels configured with "
                        "-DKokkosKernels_ENABLE_TPL_CUBLAS=OFF, or keep the routing OFF and call "
                        "KokkosBlas::gemm(space, egemm::EmulatedFP32{}, ...).")
  endif()
  add_library(EGEMM::kokkos_gemm_tpl INTERFACE IMPORTED)
  if(EGEMM_KOKKOS_GEMM_TPL)
    target_compile_definitions(EGEMM::kokkos_gemm_tpl INTERFACE EGEMM_KOKKOS_GEMM_TPL=${EGEMM_KOKKOS_GEMM_TPL})
  endif()
  if(EGEMM_KOKKOS_DGEMM_TPL)
    target_compile_definitions(EGEMM::kokkos_gemm_tpl INTERFACE EGEMM_KOKKOS_DGEMM_TPL=${EGEMM_KOKKOS_DGEMM_TPL})
  endif()
  if(Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
    target_compile_options(EGEMM::kokkos_gemm_tpl INTERFACE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--pre-include egemm/kokkos.hpp>")
  else()
    target_compile_options(EGEMM::kokkos_gemm_tpl INTERFACE "$<$<COMPILE_LANGUAGE:CXX>:SHELL:-include egemm/kokkos.hpp>")
  endif()
  if(EGEMM_KOKKOS_GEMM_TPL)
    string(APPEND EGEMM_KOKKOS_SUMMARY ", stock float gemm on CUDA routed to ${EGEMM_KOKKOS_GEMM_TPL}")
  endif()
  if(EGEMM_KOKKOS_DGEMM_TPL)
    string(APPEND EGEMM_KOKKOS_SUMMARY ", stock double gemm on CUDA routed to ${EGEMM_KOKKOS_DGEMM_TPL}")
  endif()
endif()
