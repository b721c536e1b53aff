#!/usr/bin/env bash
# For machines without a package registry (the GPU machine): unpacks the .deb
# files carried in .deps/ (scripts/fetch-gpu-deps.sh) into .deps/root, never
# over /, and points ocl-icd-opencl-dev's libOpenCL.so link at the machine's
# own loader. The Makefile and bench/gpu.sh then build against .deps/root/usr.
set -euo pipefail
cd "$(dirname "$0")/.."
compgen -G ".deps/*.deb" >/dev/null || { echo "gemmkit: no .deps/*.deb to unpack" >&2; exit 1; }
prefix=.deps/root
# Once per set of packages: unpacking again rewrites libraries in place, which
# kills running programs that have them mapped (SIGBUS), e.g. tests running
# while another sources bench/gpu-env.sh.
stamp="$prefix/.unpacked"
wanted=$(cd .deps && ls -l --time-style=+%s ./*.deb | awk '{print $5, $6, $7}')
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then exit 0; fi
mkdir -p "$prefix"
for deb in .deps/*.deb; do dpkg -x "$deb" "$prefix"; done
printf '%s\n' "$wanted" >"$stamp"
link="$prefix/usr/lib/x86_64-linux-gnu/libOpenCL.so"
loader=$(ldconfig -p 2>/dev/null | awk '/libOpenCL.so.1 /{print $NF; exit}')
if [ -L "$link" ] && [ ! -e "$link" ] && [ -n "$loader" ]; then ln -sf "$loader" "$link"; fi
echo "gemmkit: unpacked $(ls .deps/*.deb | wc -l) carried package(s) into $prefix" >&2
