# Finds Kokkos and Kokkos Kernels and gives them one name, EGEMM::KokkosKernels,
# whichever generation is installed:
#   Kokkos Kernels 4.x exports Kokkos::kokkoskernels;
#   the TriBITS-built 3.x (Debian's libtrilinos-kokkos-kernels-dev) exports
#   trilinos_kokkoskernels without include directories.
# Point CMake at a particular install with Kokkos_ROOT and KokkosKernels_ROOT.
# Installed with the package and included by EGEMMConfig.cmake as well.
find_package(Kokkos REQUIRED)
find_package(KokkosKernels REQUIRED)

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
