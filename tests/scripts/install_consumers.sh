#!/usr/bin/env bash
# The install as a user meets it: `cmake --install` into a fresh prefix inside
# the build tree, the files a package must have, then README.md's C example
# built against that prefix (never the build tree) three ways: with
# pkg-config, with README's CMake project (find_package(gemmkit), the shared
# gemmkit::gemmkit), and the same project on gemmkit::gemmkit_static. Each
# program must print the example's result.
# Usage: install_consumers.sh SOURCE_DIR BUILD_DIR [EXTRA_CFLAGS [CMAKE_PREFIX_PATH]]
set -euo pipefail
src=$1 build=$2 extra=${3:-} prefix_path=${4:-}
work=$build/install-test
rm -rf "$work"
mkdir -p "$work/project"
prefix=$work/prefix
want=$'58 64\n139 154'
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
version=$(sed -nE 's/^#define GEMMKIT_VERSION_(MAJOR|MINOR|PATCH) ([0-9]+)$/\2/p' "$src/include/gemmkit.h" | paste -sd.)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "no version in gemmkit.h ($version)"
pc=$(find "$prefix" -name gemmkit.pc)
[[ -n $pc ]] || fail "no gemmkit.pc installed"
libdir=$(dirname "$(dirname "$pc")")
for f in "$libdir/libgemmkit.so.$version" "$libdir/libgemmkit.so.${version%%.*}" "$libdir/libgemmkit.so" \
         "$libdir/libgemmkit.a" "$prefix/include/gemmkit.h" "$prefix/include/gemmkit_cl.h" \
         "$libdir/cmake/gemmkit/gemmkitConfig.cmake" "$libdir/cmake/gemmkit/gemmkitConfigVersion.cmake"; do
    [[ -e $f ]] || fail "$f not installed"
done
soname=$(objdump -p "$libdir/libgemmkit.so.$version" | awk '$1 == "SONAME" {print $2}')
[[ $soname == "libgemmkit.so.${version%%.*}" ]] || fail "soname $soname"
[[ $("$prefix/bin/gemmkit" --version) == "gemmkit $version" ]] || fail "bin/gemmkit --version"
echo "installed gemmkit $version into $prefix"

# The README's blocks: the C example and the CMake project.
awk '/^```c$/{on=1; next} /^```$/{if(on) exit} on' "$src/README.md" >"$work/project/example.c"
awk '/^```cmake$/{on=1; next} /^```$/{if(on) exit} on' "$src/README.md" >"$work/project/CMakeLists.txt"
[[ -s $work/project/example.c && -s $work/project/CMakeLists.txt ]] || fail "README.md lacks its c or cmake block"
grep -q 'find_package(gemmkit' "$work/project/CMakeLists.txt" || fail "README's CMake project does not find_package(gemmkit)"

export PKG_CONFIG_PATH=$libdir/pkgconfig
[[ $(pkg-config --modversion gemmkit) == "$version" ]] || fail "pkg-config --modversion"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
cc -std=c11 -Wall -Werror $extra "$work/project/example.c" $(pkg-config --cflags --libs gemmkit) -o "$work/example-pkgconfig"
out=$(LD_LIBRARY_PATH=$libdir "$work/example-pkgconfig")
[[ $out == "$want" ]] || fail "pkg-config build printed: $out"
echo "ok   pkg-config"

for target in gemmkit gemmkit_static; do
    dir=$work/cmake-$target
    mkdir -p "$dir"
    cp "$work/project/example.c" "$dir/"
    sed "s/gemmkit::gemmkit\b/gemmkit::$target/" "$work/project/CMakeLists.txt" >"$dir/CMakeLists.txt"
    cmake -S "$dir" -B "$dir/build" -DCMAKE_PREFIX_PATH="$prefix${prefix_path:+;$prefix_path}" \
          -DCMAKE_C_FLAGS="$extra" -DCMAKE_BUILD_TYPE=Release >"$dir/configure.log" ||
        { cat "$dir/configure.log"; fail "find_package(gemmkit) project ($target) did not configure"; }
    cmake --build "$dir/build" >"$dir/build.log" || { cat "$dir/build.log"; fail "CMake project ($target) did not build"; }
    # No library path: CMake's rpath finds the installed shared library.
    out=$("$dir/build/example")
    [[ $out == "$want" ]] || fail "CMake project ($target) printed: $out"
    echo "ok   find_package(gemmkit) with gemmkit::$target"
done
echo "PASS install_consumers"
