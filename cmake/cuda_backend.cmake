# The CUDA backend (NVRTC + driver API) is built when the toolkit is found;
# otherwise a stand-in reports it as absent. Sets GEMMKIT_BACKEND_LIBS.
set(GEMMKIT_BACKEND_LIBS "")
list(APPEND GEMMKIT_SOURCES ${CMAKE_SOURCE_DIR}/src/backend/cuda_absent.c)
