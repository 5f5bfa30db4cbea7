#!/usr/bin/env bash
# build.sh BUILD_DIR [cmake args...] — installs dependencies (Debian packages,
# the pinned llama.cpp into ~/.cache/nunchi), then configures and builds nunchi
# into BUILD_DIR. Safe to run again: every step skips what is already done.
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
cmake -S "$root" -B "$build" -G Ninja "${llama_args[@]}" "$@" >"$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
echo "build: compiling into $build (${JOBS:-2} jobs)"
cmake --build "$build" -j "${JOBS:-2}"
