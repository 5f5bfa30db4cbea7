#!/usr/bin/env bash
# build.sh BUILD_DIR [cmake args...] — installs dependencies (Debian packages,
# the pinned llama.cpp into ~/.cache/nunchi), then configures and builds nunchi
# into BUILD_DIR. Safe to run again: every step skips what is already done.
# Our own objects go through ccache (cache outside the clone, ~/.cache/ccache,
# paths taken relative to the checkout so clean clones and worktrees share it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: build.sh BUILD_DIR [cmake args...]}
shift
"$root/scripts/setup-deps.sh"
llama_args=()
if [ "${NUNCHI_WITH_LLAMA:-ON}" != "OFF" ]; then
  prefix=$("$root/scripts/setup-llama.sh" | tail -n 1)
  llama_args=(-DNUNCHI_LLAMA_DIR="$prefix")
else
  llama_args=(-DNUNCHI_WITH_LLAMA=OFF)
fi
launcher_args=()
if command -v ccache >/dev/null 2>&1 && [ "${NUNCHI_CCACHE:-ON}" != "OFF" ]; then
  export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
  launcher_args=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$build" -G Ninja "${llama_args[@]}" "${launcher_args[@]}" "$@" \
  >"$build.configure.log" 2>&1 || { cat "$build.configure.log"; exit 1; }
echo "build: compiling into $build (${JOBS:-2} jobs)"
CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1 cmake --build "$build" -j "${JOBS:-2}"
