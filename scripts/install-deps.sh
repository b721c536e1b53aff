#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages gemmkit needs to build and test, when
# they are missing. Shared by `make run`, `make test` and CI. Optional, found
# at run time when present: gnuplot-nox (bench --plot), libclblast1 (bench peer).
set -euo pipefail

packages=(cmake make gcc pkg-config ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcmocka-dev libjansson-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "gemmkit: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
