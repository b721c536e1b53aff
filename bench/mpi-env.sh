# Open MPI and ScaLAPACK carried as Debian packages (scripts/fetch-gpu-deps.sh)
# and unpacked with dpkg -x (scripts/unpack-deps.sh), made usable where they
# lie. Sourced by bench/gpu-env.sh; by hand: `GK_MPI_ROOT=DIR . bench/mpi-env.sh`
# (DIR: where the packages were unpacked; default .deps/root).
#   - Open MPI finds its components, help and wrapper files through OPAL_PREFIX
#     (its own relocation), PMIx through PMIX_PKGDATADIR / PMIX_PKGLIBDIR;
#   - mpirun, mpiexec and mpicc get their plain names in DIR/mpi-bin, first on
#     PATH (dpkg -x sets up no alternatives), so CMake's FindMPI finds them;
#   - ScaLAPACK's libblas.so.3 and liblapack.so.3 come from DIR's blas/ and
#     lapack/ folders when the machine has none;
#   - only the transports carried are used: shared memory within one host (the
#     fabric libraries of UCX, libfabric, verbs and PSM are not carried).
# Does nothing where DIR holds no Open MPI; nothing here exits the shell.
gk_mpi_env() {
  local root=$1 lib
  [ -x "$root/usr/bin/orterun" ] || return 1
  root=$(cd "$root" && pwd)
  lib=$root/usr/lib/x86_64-linux-gnu
  mkdir -p "$root/mpi-bin" || return 1
  ln -sfn ../usr/bin/orterun "$root/mpi-bin/mpirun"
  ln -sfn ../usr/bin/orterun "$root/mpi-bin/mpiexec"
  ln -sfn ../usr/bin/mpicc.openmpi "$root/mpi-bin/mpicc"
  ln -sfn ../usr/bin/ompi_info "$root/mpi-bin/ompi_info"
  export OPAL_PREFIX=$root/usr
  export PMIX_PKGDATADIR=$lib/pmix2/share/pmix PMIX_PKGLIBDIR=$lib/pmix2/lib/pmix
  export PATH=$root/mpi-bin${PATH:+:$PATH}
  local path=$lib
  ldconfig -p 2>/dev/null | grep -q "libblas.so.3 " || path=$path:$lib/blas
  ldconfig -p 2>/dev/null | grep -q "liblapack.so.3 " || path=$path:$lib/lapack
  export LD_LIBRARY_PATH=$path${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_osc=^ucx OMPI_MCA_mtl=^ofi,psm,psm2
  # The GPU machine runs as root; Open MPI refuses that unless told.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  echo "mpi-env: Open MPI and ScaLAPACK from $root (mpirun: $root/mpi-bin/mpirun)" >&2
}
gk_mpi_env "${GK_MPI_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.deps/root}"
