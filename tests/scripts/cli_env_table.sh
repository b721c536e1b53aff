#!/usr/bin/env bash
# One table of environment variables: `gemmkit help env` (the source of
# truth, tools/gemmkit/env_help.c) and README.md's table name the same
# variables with the same defaults, and every GEMMKIT_* name the sources read
# ("GEMMKIT_X" as a C string in src/, tools/, tests/) is in it.
# Usage: cli_env_table.sh SOURCE_DIR PATH/TO/gemmkit
set -euo pipefail
src=$1 gemmkit=$2
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# "NAME<TAB>default" from each side.
tool=$("$gemmkit" help env | sed -nE 's/^  (GEMMKIT_[A-Z0-9_]+) +default: (.*)$/\1\t\2/p' | sort)
readme=$(awk '/^## Environment variables/{on=1; next} /^## /{on=0} on' "$src/README.md" |
         sed -nE 's/^\| `(GEMMKIT_[A-Z0-9_]+)` \| ([^|]*[^ |]) +\|.*$/\1\t\2/p' | sort)
[[ -n $tool ]] || fail "gemmkit help env lists no variable"
[[ -n $readme ]] || fail "README.md has no table under '## Environment variables'"

while IFS=$'\t' read -r name default; do
    row=$(grep -P "^$name\t" <<<"$readme" || true)
    if [[ -z $row ]]; then fail "$name: in gemmkit help env, not in README.md"
    elif [[ ${row#*$'\t'} != "$default" ]]; then fail "$name: default \"$default\" in gemmkit help env, \"${row#*$'\t'}\" in README.md"
    else echo "ok   $name (default: $default)"; fi
done <<<"$tool"
while IFS=$'\t' read -r name _; do
    grep -qP "^$name\t" <<<"$tool" || fail "$name: in README.md, not in gemmkit help env"
done <<<"$readme"

# Every variable the code reads is documented.
used=$(grep -rhoE --include='*.c' --include='*.h' '"GEMMKIT_[A-Z0-9_]+"' "$src/src" "$src/tools" "$src/tests" |
       tr -d '"' | sort -u)
for name in $used; do
    grep -qP "^$name\t" <<<"$tool" || fail "$name: read by the sources, missing from tools/gemmkit/env_help.c"
done

echo "$(wc -l <<<"$tool") variables, $(wc -w <<<"$used") named in the sources, $failures problem(s)"
[[ $failures == 0 ]]
