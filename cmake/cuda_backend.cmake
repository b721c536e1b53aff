# The CUDA backend (NVRTC + driver API, both loaded with dlopen at run time)
# is built when the toolkit's headers are found; otherwise a stand-in reports
# it as absent. GEMMKIT_CUDA: AUTO (default), ON (fail without the toolkit),
# OFF. Appends to GEMMKIT_SOURCES and sets GEMMKIT_BACKEND_LIBS.
set(GEMMKIT_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO, ON or OFF")
set_property(CACHE GEMMKIT_CUDA PROPERTY STRINGS AUTO ON OFF)
set(GEMMKIT_BACKEND_LIBS "")
set(GEMMKIT_HAVE_CUDA OFF)

# The OpenCL-to-CUDA source translation needs no CUDA headers: always built,
# so its tests run everywhere.
list(APPEND GEMMKIT_SOURCES ${CMAKE_SOURCE_DIR}/src/backend/cuda_translate.c)

if(NOT GEMMKIT_CUDA STREQUAL "OFF")
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    # Only headers are needed at build time: the libraries are dlopen'ed.
    find_path(GEMMKIT_CUDA_INCLUDE_DIR NAMES cuda.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
    find_path(GEMMKIT_NVRTC_INCLUDE_DIR NAMES nvrtc.h HINTS ${CUDAToolkit_INCLUDE_DIRS} NO_DEFAULT_PATH)
    if(GEMMKIT_CUDA_INCLUDE_DIR AND GEMMKIT_NVRTC_INCLUDE_DIR)
      set(GEMMKIT_HAVE_CUDA ON)
    endif()
  endif()
  if(NOT GEMMKIT_HAVE_CUDA AND GEMMKIT_CUDA STREQUAL "ON")
    message(FATAL_ERROR "GEMMKIT_CUDA=ON but the CUDA toolkit (cuda.h, nvrtc.h) was not found; "
                        "set CUDAToolkit_ROOT or use GEMMKIT_CUDA=AUTO/OFF")
  endif()
endif()

if(GEMMKIT_HAVE_CUDA)
  set(cuda_sources ${CMAKE_SOURCE_DIR}/src/backend/cuda.c ${CMAKE_SOURCE_DIR}/src/backend/cuda_driver.c
                   ${CMAKE_SOURCE_DIR}/src/backend/cuda_nvrtc.c ${CMAKE_SOURCE_DIR}/src/backend/cuda_staging.c)
  list(APPEND GEMMKIT_SOURCES ${cuda_sources})
  # Where NVRTC is looked for at run time after the loader's own search path.
  set(cuda_libdir "${CUDAToolkit_LIBRARY_DIR}")
  if(NOT cuda_libdir)
    set(cuda_libdir "/usr/local/cuda/lib64")
  endif()
  set_source_files_properties(${cuda_sources} PROPERTIES
    INCLUDE_DIRECTORIES "${GEMMKIT_CUDA_INCLUDE_DIR};${GEMMKIT_NVRTC_INCLUDE_DIR}"
    COMPILE_DEFINITIONS "GK_CUDA_MAJOR=${CUDAToolkit_VERSION_MAJOR};GK_CUDA_LIBDIR=\"${cuda_libdir}\"")
  set(GEMMKIT_BACKEND_LIBS ${CMAKE_DL_LIBS})
  message(STATUS "gemmkit: CUDA backend ON (toolkit ${CUDAToolkit_VERSION}, headers in ${GEMMKIT_CUDA_INCLUDE_DIR}; "
                 "libcuda and NVRTC are loaded at run time)")
else()
  list(APPEND GEMMKIT_SOURCES ${CMAKE_SOURCE_DIR}/src/backend/cuda_absent.c)
  message(STATUS "gemmkit: CUDA backend OFF")
endif()
