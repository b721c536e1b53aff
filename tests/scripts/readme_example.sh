#!/usr/bin/env bash
# Compiles and runs the C example in README.md against the built library, so
# the README's example cannot drift from the API.
set -euo pipefail
src_dir=$1 build_dir=$2 extra_flags=${3:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk '/^```c$/{on=1; next} /^```$/{if(on) exit} on' "$src_dir/README.md" > "$work/example.c"
test -s "$work/example.c"
cc -std=c11 -Wall -Werror $extra_flags "$work/example.c" -I"$src_dir/include" -L"$build_dir" -lgemmkit -o "$work/example"
out=$(LD_LIBRARY_PATH="$build_dir" "$work/example")
echo "$out"
[ "$out" = $'58 64\n139 154' ]
