# Sourced (`. bench/gpu-env.sh`) on the GPU machine (see /work/shared/gpu/NOTES.md):
# registers NVIDIA's OpenCL driver, unpacks the packages carried in .deps/
# (CLBlast, cmocka, jansson: scripts/fetch-gpu-deps.sh fetches them elsewhere)
# beside the tree, and exports the paths that make them and CUDA visible.
# Messages go to stderr; nothing here exits the shell that sources it.
gk_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# NVIDIA's OpenCL driver (only PoCL is registered on a fresh machine); only
# where the driver exists: never touch a machine without NVIDIA's library.
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ] && ldconfig -p 2>/dev/null | grep -q libnvidia-opencl.so.1; then
  gk_sudo=""
  [ "$(id -u)" -ne 0 ] && gk_sudo="sudo -n"
  if $gk_sudo mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 | $gk_sudo tee /etc/OpenCL/vendors/nvidia.icd >/dev/null; then
    echo "gpu-env: registered NVIDIA's OpenCL driver" >&2
  else
    echo "gpu-env: could not register NVIDIA's OpenCL driver (needs root): GPU runs will fail" >&2
  fi
fi

# Carried packages, unpacked beside the tree (never over /).
gk_prefix="$gk_root/.deps/root"
if compgen -G "$gk_root/.deps/*.deb" >/dev/null; then
  "$gk_root/scripts/unpack-deps.sh" >&2 || echo "gpu-env: could not unpack .deps" >&2
  export LD_LIBRARY_PATH="$gk_prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export CMAKE_PREFIX_PATH="$gk_prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
else
  echo "gpu-env: no .deps/*.deb (scripts/fetch-gpu-deps.sh): CLBlast, cmocka and jansson only if installed" >&2
fi
# cuBLAS and the CUDA runtime are found with dlopen; make the toolkit's folder visible.
for gk_d in /usr/local/cuda/lib64 /usr/local/cuda/lib; do
  [ -d "$gk_d" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$gk_d"
done
export GEMMKIT_DEVICE=${GEMMKIT_DEVICE:-NVIDIA}
