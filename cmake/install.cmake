# `cmake --install build [--prefix DIR]` (and `make install PREFIX=DIR`):
#   lib/libgemmkit.so.X.Y.Z (+ soname links), lib/libgemmkit.a
#   include/gemmkit.h, include/gemmkit_cl.h, include/gemmkit_cuda.h
#   bin/gemmkit
#   lib/pkgconfig/gemmkit.pc
#   lib/cmake/gemmkit/: gemmkitConfig.cmake, its version file, the targets
#     gemmkit::gemmkit (shared) and gemmkit::gemmkit_static
# Kernel sources and the built-in tuning tables are embedded in the library:
# nothing else to install. The libraries are GEMMKIT_INSTALL_LIBRARIES
# (CMakeLists.txt).
include(CMakePackageConfigHelpers)
set(GEMMKIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gemmkit)

install(TARGETS ${GEMMKIT_INSTALL_LIBRARIES} EXPORT gemmkitTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/gemmkit.h ${CMAKE_SOURCE_DIR}/include/gemmkit_cl.h ${CMAKE_SOURCE_DIR}/include/gemmkit_cuda.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The tool links the static library: it runs from any prefix without a library path.
install(TARGETS gemmkit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# CMake package: find_package(gemmkit) -> gemmkit::gemmkit. Relocatable: the
# targets file finds the prefix from its own location.
install(EXPORT gemmkitTargets NAMESPACE gemmkit:: DESTINATION ${GEMMKIT_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gemmkitConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/gemmkitConfig.cmake INSTALL_DESTINATION ${GEMMKIT_CMAKE_DIR})
# The soname changes with MAJOR, so any MINOR/PATCH of the same MAJOR serves.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gemmkitConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gemmkitConfig.cmake ${CMAKE_BINARY_DIR}/gemmkitConfigVersion.cmake
        DESTINATION ${GEMMKIT_CMAKE_DIR})

# pkg-config: written when installing, straight into the prefix, so that it
# names the prefix given to `cmake --install --prefix` rather than the one
# configured (and two installs of one build to different prefixes at once do
# not share a file).
set(GEMMKIT_PC_LIBS_PRIVATE "-lOpenCL -lpthread -lm")
if(GEMMKIT_BACKEND_LIBS)
  string(APPEND GEMMKIT_PC_LIBS_PRIVATE " -l${GEMMKIT_BACKEND_LIBS}")
endif()
install(CODE "
  set(GEMMKIT_PC_VERSION \"${PROJECT_VERSION}\")
  set(GEMMKIT_PC_LIBS_PRIVATE \"${GEMMKIT_PC_LIBS_PRIVATE}\")
  set(GEMMKIT_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  set(GEMMKIT_PC_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
  set(GEMMKIT_PC_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  set(pc_dir \"\${GEMMKIT_PC_LIBDIR}/pkgconfig\")
  if(NOT IS_ABSOLUTE \"\${pc_dir}\")
    set(pc_dir \"\${CMAKE_INSTALL_PREFIX}/\${pc_dir}\")
  endif()
  foreach(dir LIBDIR INCLUDEDIR)
    if(NOT IS_ABSOLUTE \"\${GEMMKIT_PC_\${dir}}\")
      set(GEMMKIT_PC_\${dir} \"\\\${prefix}/\${GEMMKIT_PC_\${dir}}\")
    endif()
  endforeach()
  set(pc_file \"\$ENV{DESTDIR}\${pc_dir}/gemmkit.pc\")
  message(STATUS \"Installing: \${pc_file}\")
  configure_file(\"${CMAKE_CURRENT_LIST_DIR}/gemmkit.pc.in\" \"\${pc_file}\" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${pc_file}\")
")
