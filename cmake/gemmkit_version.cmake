# The version has one home: the GEMMKIT_VERSION_MAJOR/MINOR/PATCH macros of
# include/gemmkit.h. Read here, before project(), so that project(VERSION),
# the soname, gemmkit.pc and the CMake package all follow the header.
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/../include/gemmkit.h gemmkit_version_lines
     REGEX "^#define GEMMKIT_VERSION_(MAJOR|MINOR|PATCH) +[0-9]+$")
foreach(part MAJOR MINOR PATCH)
  if(NOT gemmkit_version_lines MATCHES "GEMMKIT_VERSION_${part} +([0-9]+)")
    message(FATAL_ERROR "include/gemmkit.h has no '#define GEMMKIT_VERSION_${part} <number>' line")
  endif()
  set(GEMMKIT_VERSION_${part} ${CMAKE_MATCH_1})
endforeach()
set(GEMMKIT_VERSION ${GEMMKIT_VERSION_MAJOR}.${GEMMKIT_VERSION_MINOR}.${GEMMKIT_VERSION_PATCH})
# An edit of the header's version configures again.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/../include/gemmkit.h)
