# The one setup of the GPU machine, sourced by bench/gpu.sh, bench/gpu-tests.sh,
# bench/cuda-check.sh, bench/sweep.sh and bench/before-after.sh (or by hand: `. bench/gpu-env.sh`). See
# ../shared/gpu/NOTES.md for that machine. It
#   - registers NVIDIA's OpenCL driver (only PoCL is registered on a fresh machine),
#   - unpacks the packages carried in .deps/ (scripts/fetch-gpu-deps.sh fetches
#     them: CLBlast, cmocka, jansson, OpenCL headers, Open MPI and ScaLAPACK)
#     into .deps/root, the one way scripts/unpack-deps.sh does it, and exports
#     the paths that make them and the CUDA toolkit visible to CMake, the linker
#     and dlopen (Open MPI's own: bench/mpi-env.sh),
#   - sets GEMMKIT_OFFLINE=1, so that `make` unpacks instead of calling apt-get,
#   - defines the step runner the scripts share (gk_steps_begin, gk_step,
#     gk_log, gk_steps_end), with one time budget for the whole script, and
#     gk_build, the Release build they run as two such steps.
# Messages go to stderr; nothing here exits the shell that sources it.
gk_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# NVIDIA's OpenCL driver, where the driver exists: never touch a machine without
# NVIDIA's library. As root it goes into /etc/OpenCL/vendors; otherwise into a
# private vendors folder (OCL_ICD_VENDORS) that keeps the machine's other ICDs.
gk_register_nvidia_opencl() {
  grep -qsl nvidia /etc/OpenCL/vendors/*.icd && return 0
  ldconfig -p 2>/dev/null | grep -q libnvidia-opencl.so.1 || return 0
  if [ "$(id -u)" -eq 0 ] && mkdir -p /etc/OpenCL/vendors &&
    echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; then
    echo "gpu-env: registered NVIDIA's OpenCL driver in /etc/OpenCL/vendors" >&2
    return 0
  fi
  local vendors
  vendors=$(mktemp -d)
  cp /etc/OpenCL/vendors/*.icd "$vendors/" 2>/dev/null
  echo libnvidia-opencl.so.1 >"$vendors/nvidia.icd"
  export OCL_ICD_VENDORS="$vendors"
  echo "gpu-env: registered NVIDIA's OpenCL driver through OCL_ICD_VENDORS=$vendors" >&2
}
gk_register_nvidia_opencl

# Carried packages, unpacked beside the tree (never over /).
if compgen -G "$gk_root/.deps/*.deb" >/dev/null; then
  "$gk_root/scripts/unpack-deps.sh" >&2 || echo "gpu-env: could not unpack .deps" >&2
  export LD_LIBRARY_PATH="$gk_root/.deps/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export CMAKE_PREFIX_PATH="$gk_root/.deps/root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  # Open MPI and ScaLAPACK, when carried: mpirun, mpicc and their files from there.
  [ -x "$gk_root/.deps/root/usr/bin/orterun" ] && GK_MPI_ROOT="$gk_root/.deps/root" . "$gk_root/bench/mpi-env.sh"
else
  echo "gpu-env: no .deps/*.deb (scripts/fetch-gpu-deps.sh): CLBlast, cmocka and jansson only if installed" >&2
fi
# NVRTC, cuBLAS and the CUDA runtime are loaded with dlopen: make the toolkit's folder visible.
for gk_d in "${CUDA_HOME:-/usr/local/cuda}/lib64" /usr/local/cuda/lib; do
  [ -d "$gk_d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$gk_d"
done
# No registry there: scripts/install-deps.sh goes straight to the carried packages.
export GEMMKIT_OFFLINE=1

# --- Steps with one time budget -------------------------------------------
# gk_steps_begin OUTDIR BUDGET_SECONDS: every later step writes OUTDIR/NAME.log
# and is cut to what is left of the budget; gk_failed lists the failed steps.
gk_steps_begin() {
  gk_out=$1
  mkdir -p "$gk_out" && gk_out=$(cd "$gk_out" && pwd)
  gk_start=$(date +%s)
  gk_deadline=$((gk_start + $2))
  gk_failed=()
}
gk_log() { echo "[$(basename "$0") $(($(date +%s) - gk_start)) s] $*" | tee -a "$gk_out/steps.log" >&2; }
# gk_cap SECONDS: the limit cut to the time left before the deadline (0 when none is left).
gk_cap() {
  local left=$((gk_deadline - $(date +%s) - 5))
  [ $left -lt 0 ] && left=0
  echo $(($1 < left ? $1 : left))
}
# gk_budget NAME SECONDS: sets gk_limit to SECONDS cut to the budget left; when
# under 10 s are left, logs NAME as skipped, records it in gk_failed, returns 1.
gk_budget() {
  gk_limit=$(gk_cap "$2")
  [ "$gk_limit" -ge 10 ] && return 0
  gk_log "$1: skipped, the time budget is spent"
  gk_failed+=("$1")
  return 1
}
# gk_step NAME SECONDS COMMAND...: runs COMMAND with a time limit, its output in
# OUTDIR/NAME.log; a failure or a time-out is logged and recorded in gk_failed.
gk_step() {
  local name=$1 limit
  gk_budget "$name" "$2" || return 1
  limit=$gk_limit
  shift 2
  gk_log "$name: $*"
  timeout --kill-after=10 "$limit" "$@" >"$gk_out/$name.log" 2>&1
  local rc=$?
  if [ $rc -ne 0 ]; then
    [ $rc -eq 124 ] && gk_log "$name: stopped after $limit s" || gk_log "$name: exit status $rc"
    gk_failed+=("$name")
  else
    gk_log "$name: ok"
  fi
  return $rc
}
# gk_build BUILD_DIR [CMAKE_OPTION...]: a Release build of the tree as two steps
# (configure, build; JOBS build jobs, default nproc; GK_TARGETS, when set, the
# only targets built, e.g. "gemmkit_cli gemmkit_multi_gpu"); sets gk_gemmkit to its
# gemmkit and lists the devices it sees in OUTDIR/devices.txt; returns 1, with
# the build log's end, when there is no gemmkit.
gk_build() {
  local build=$1
  shift
  gk_step configure 180 cmake -S "$gk_root" -B "$build" -DCMAKE_BUILD_TYPE=Release "$@"
  # shellcheck disable=SC2086 # GK_TARGETS is a list of target names
  gk_step build 300 cmake --build "$build" -j "${JOBS:-$(nproc)}" ${GK_TARGETS:+--target $GK_TARGETS}
  gk_gemmkit="$build/gemmkit"
  if [ -x "$gk_gemmkit" ]; then
    "$gk_gemmkit" devices >"$gk_out/devices.txt" 2>&1
    return 0
  fi
  gk_log "no gemmkit binary: see $gk_out/configure.log and $gk_out/build.log"
  tail -30 "$gk_out/build.log" >&2 2>/dev/null
  return 1
}
# gk_has_cuda GEMMKIT: whether that gemmkit has the CUDA backend and it sees a device.
gk_has_cuda() { "$1" --backend cuda devices 2>/dev/null | grep -q "^CUDA: [1-9]"; }
# gk_steps_end: the closing line; returns 0 when no step failed.
gk_steps_end() {
  gk_log "done in $(($(date +%s) - gk_start)) s; failed steps: ${gk_failed[*]:-none}"
  [ ${#gk_failed[@]} -eq 0 ]
}
