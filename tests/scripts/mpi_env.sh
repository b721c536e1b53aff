#!/usr/bin/env bash
# bench/mpi-env.sh makes an Open MPI unpacked anywhere usable, as on the GPU
# machine (.deps/root): the installed packages' files are copied into a
# temporary folder, as dpkg -x would lay them out, and that copy must compile
# and run an MPI program by itself (its mpicc, its mpirun, its prefix, its
# libmpi). Skipped (77) where Open MPI is not installed as Debian packages.
# usage: mpi_env.sh SOURCE_DIR
set -u
src=$1
packages=(openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2)
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    { echo "skipped: $p is not installed"; exit 77; }
done
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
for p in "${packages[@]}"; do
  dpkg-query -L "$p" | while read -r f; do
    [ -f "$f" ] || [ -L "$f" ] && [ ! -d "$f" ] && mkdir -p "$root$(dirname "$f")" && cp -P "$f" "$root$f"
  done
done

fails=0 passes=0
check() { # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; passes=$((passes + 1)); else echo "FAILED: $1"; fails=$((fails + 1)); fi
}
cat >"$root/hello.c" <<'EOF'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    int rank = 0, size = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d of %d, sum %d\n", rank, size, sum);
    MPI_Finalize();
    return 0;
}
EOF
(
  GK_MPI_ROOT=$root . "$src/bench/mpi-env.sh" 2>/dev/null
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
  echo "mpirun=$(command -v mpirun)"
  echo "mpicc=$(command -v mpicc)"
  ompi_info --all 2>/dev/null | grep -E "^ *(Prefix|Pkglibdir):" | sed 's/^ */info /'
  mpicc "$root/hello.c" -o "$root/hello" && ldd "$root/hello" | grep "libmpi.so" | sed 's/^\s*/ldd /'
  mpirun -np 2 "$root/hello" 2>&1
) >"$root/run.txt" 2>&1
cat "$root/run.txt"
check "mpirun is the copy's" grep -qx "mpirun=$root/mpi-bin/mpirun" "$root/run.txt"
check "mpicc is the copy's" grep -qx "mpicc=$root/mpi-bin/mpicc" "$root/run.txt"
check "Open MPI's prefix is the copy" grep -q "info Prefix: $root/usr$" "$root/run.txt"
check "its components come from the copy" grep -q "info Pkglibdir: $root/usr/" "$root/run.txt"
check "the program links the copy's libmpi" grep -q "ldd libmpi.so.* => $root/" "$root/run.txt"
check "both ranks ran and communicated" bash -c "grep -c 'of 2, sum 1$' '$root/run.txt' | grep -qx 2"
check "no help file or component is missing" bash -c "! grep -qi \"couldn't open the help file\|unable to open\" '$root/run.txt'"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
