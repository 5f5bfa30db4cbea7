#!/usr/bin/env bash
# setup-llama.sh — obtain llama.cpp at the pinned commit, build it once, and
# install it into a cache outside the repository that CMake finds later.
#
# Sources (first match wins):
#   LLAMA_SRC=/path/to/llama.cpp          use a local checkout as it is
#   LLAMA_GIT_URL=url [LLAMA_COMMIT=sha]  clone a git URL, check out the commit
#   (default)                             the git bundle shipped inside the npm
#                                         package node-llama-cpp@3.21.1
#                                         (llama/gitRelease.bundle), fetched
#                                         with `npm pack` when not cached.
# Environment:
#   NUNCHI_CACHE   cache root (default $HOME/.cache/nunchi)
#   NODE_LLAMA_TGZ an already downloaded node-llama-cpp-3.21.1.tgz to use
#   JOBS           parallel build jobs (default 2); the build runs under nice -n 10
#   FORCE=1        rebuild even if the install is present
#
# Output: the last line printed is the install prefix, e.g.
#   ~/.cache/nunchi/llama-80fb11ac-<flagshash>
# Pass it to CMake as -DNUNCHI_LLAMA_DIR=<prefix> (or CMAKE_PREFIX_PATH).
# A second run with the install present only verifies it and prints the prefix.
set -euo pipefail

PINNED_COMMIT=80fb11ac73e66d89eae2c6a91d8a77428fa733ed
NPM_PACKAGE=node-llama-cpp@3.21.1
NPM_TGZ_NAME=node-llama-cpp-3.21.1.tgz

CACHE=${NUNCHI_CACHE:-$HOME/.cache/nunchi}
JOBS=${JOBS:-2}
TOOLS=(llama-server llama-batched-bench llama-quantize llama-bench)
START=$(date +%s)

log() { printf '[setup-llama %4ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# Build flags; their hash (with the compiler identity) keys the install dir.
CMAKE_FLAGS=(
  -DCMAKE_BUILD_TYPE=Release
  -DGGML_NATIVE=ON
  -DBUILD_SHARED_LIBS=OFF
  -DLLAMA_CURL=OFF
  -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_COMMON=ON
  -DLLAMA_BUILD_TESTS=OFF
  -DLLAMA_BUILD_EXAMPLES=OFF
  -DLLAMA_BUILD_TOOLS=ON
  -DLLAMA_BUILD_SERVER=ON
  -DLLAMA_BUILD_APP=OFF
  -DLLAMA_TOOLS_INSTALL=OFF
  -DLLAMA_BUILD_UI=OFF
  -DLLAMA_USE_PREBUILT_UI=OFF
)
# GGML_NATIVE=ON compiles for this CPU, but some virtual machines advertise AMX
# without letting a process use its tiles: ggml's AMX kernels (quantized
# matmuls) then die with SIGILL. AMX is left out; AVX-512/VNNI stay.
if [[ "$(uname -m)" == x86_64 ]]; then
  CMAKE_FLAGS+=("-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
    "-DCMAKE_CXX_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
fi
CXX_ID=$( (${CXX:-c++} --version 2>/dev/null || true) | head -n1)
FLAGS_HASH=$(printf '%s\n' "${CMAKE_FLAGS[@]}" "$CXX_ID" "$(uname -m)" | sha256sum | cut -c1-10)

mkdir -p "$CACHE"

# --- 1. the source tree --------------------------------------------------------
resolve_source() {
  if [[ -n "${LLAMA_SRC:-}" ]]; then
    [[ -f "$LLAMA_SRC/include/llama.h" ]] || die "LLAMA_SRC=$LLAMA_SRC is not a llama.cpp tree"
    SRC=$(cd "$LLAMA_SRC" && pwd)
    COMMIT=$(git -C "$SRC" rev-parse HEAD 2>/dev/null || echo local)
    if [[ "$COMMIT" != "$PINNED_COMMIT" ]]; then
      log "warning: LLAMA_SRC is at $COMMIT, pinned is $PINNED_COMMIT"
    fi
    return
  fi
  COMMIT=${LLAMA_COMMIT:-$PINNED_COMMIT}
  SRC="$CACHE/src/llama.cpp-${COMMIT:0:8}"
  if [[ -d "$SRC/.git" ]] && [[ "$(git -C "$SRC" rev-parse HEAD)" == "$COMMIT"* ]]; then
    log "source present: $SRC"
    COMMIT=$(git -C "$SRC" rev-parse HEAD)
    return
  fi
  rm -rf "$SRC" "$SRC.tmp"
  mkdir -p "$CACHE/src"
  if [[ -n "${LLAMA_GIT_URL:-}" ]]; then
    log "cloning $LLAMA_GIT_URL"
    git clone -q "$LLAMA_GIT_URL" "$SRC.tmp"
  else
    local tgz=${NODE_LLAMA_TGZ:-$CACHE/dl/$NPM_TGZ_NAME}
    if [[ ! -f "$tgz" ]]; then
      if ! command -v npm >/dev/null; then
        log "installing npm (Debian package) to fetch $NPM_PACKAGE"
        SUDO=""
        [ "$(id -u)" -eq 0 ] || SUDO=sudo
        $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >&2
      fi
      command -v npm >/dev/null || die "npm is needed to fetch $NPM_PACKAGE (or set LLAMA_SRC)"
      mkdir -p "$CACHE/dl"
      log "fetching $NPM_PACKAGE with npm pack (~35 MB)"
      (cd "$CACHE/dl" && npm pack --silent "$NPM_PACKAGE" >/dev/null)
      tgz="$CACHE/dl/$NPM_TGZ_NAME"
      [[ -f "$tgz" ]] || die "npm pack did not produce $tgz"
    fi
    log "extracting llama/gitRelease.bundle from $tgz"
    local tmp
    tmp=$(mktemp -d)
    tar -xzf "$tgz" -C "$tmp" package/llama/gitRelease.bundle
    log "cloning the bundle"
    git -c advice.detachedHead=false clone -q "$tmp/package/llama/gitRelease.bundle" "$SRC.tmp"
    rm -rf "$tmp"
  fi
  git -C "$SRC.tmp" -c advice.detachedHead=false checkout -q --detach "$COMMIT" ||
    die "commit $COMMIT not found in the source"
  COMMIT=$(git -C "$SRC.tmp" rev-parse HEAD)
  mv "$SRC.tmp" "$SRC"
  log "source ready at $COMMIT"
}
resolve_source

PREFIX="$CACHE/llama-${COMMIT:0:8}-$FLAGS_HASH"
STAMP="$PREFIX/.nunchi-complete"

# --- 2. already installed? -----------------------------------------------------
if [[ -f "$STAMP" && -z "${FORCE:-}" ]]; then
  for t in "${TOOLS[@]}"; do
    [[ -x "$PREFIX/bin/$t" ]] || die "$PREFIX is incomplete (no bin/$t); rerun with FORCE=1"
  done
  log "cached install present ($(cat "$STAMP"))"
  echo "$PREFIX"
  exit 0
fi

# --- 3. configure and build ------------------------------------------------------
BUILD="$CACHE/build/llama-${COMMIT:0:8}-$FLAGS_HASH"
mkdir -p "$CACHE/build"
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
log "configuring in $BUILD"
nice -n 10 cmake -S "$SRC" -B "$BUILD" "${GEN[@]}" "${CMAKE_FLAGS[@]}" \
  -DCMAKE_INSTALL_PREFIX="$PREFIX" >"$BUILD.configure.log" 2>&1 ||
  { tail -n 30 "$BUILD.configure.log" >&2; die "configure failed (log: $BUILD.configure.log)"; }

log "building llama, ggml, common and ${TOOLS[*]} with -j$JOBS (about 15 min on 2 cores)"
filter_progress() {
  local line n m
  while IFS= read -r line; do
    # Ninja prints "[n/m] ..."; show every 25th step so progress stays readable.
    if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
      n=${BASH_REMATCH[1]}
      m=${BASH_REMATCH[2]}
      if ((n % 25 == 0 || n == m)); then log "build step $n/$m"; fi
    elif [[ "$line" == *error* || "$line" == *FAILED* ]]; then
      echo "$line" >&2
    fi
  done
}
if ! nice -n 10 cmake --build "$BUILD" -j"$JOBS" --target llama llama-common "${TOOLS[@]}" 2>&1 |
  tee "$BUILD.build.log" | filter_progress; then
  die "build failed (log: $BUILD.build.log)"
fi

# --- 4. install into the cache -----------------------------------------------------
log "installing into $PREFIX"
rm -rf "$PREFIX"
cmake --install "$BUILD" >"$BUILD.install.log" 2>&1 ||
  { tail -n 30 "$BUILD.install.log" >&2; die "install failed (log: $BUILD.install.log)"; }
P="$PREFIX"
mkdir -p "$P/bin" "$P/lib" "$P/include/llama-common" "$P/share/nunchi"
for t in "${TOOLS[@]}"; do
  cp "$BUILD/bin/$t" "$P/bin/"
done
# llama.cpp does not install `common`: copy its static libraries and headers.
find "$BUILD/common" "$BUILD/vendor" -name '*.a' -exec cp {} "$P/lib/" \;
cp "$SRC"/common/*.h "$P/include/llama-common/"
cp "$SRC"/common/*.hpp "$P/include/llama-common/" 2>/dev/null || true
cp "$SRC/models/ggml-vocab-qwen2.gguf" "$P/share/nunchi/"
cp -r "$SRC/grammars" "$P/share/nunchi/"
# An imported target for common, found next to llama-config.cmake.
cat >"$P/lib/cmake/llama/nunchi-llama-common.cmake" <<'EOF'
# Imported target llama::common (llama.cpp's common library, copied by
# scripts/setup-llama.sh because llama.cpp does not install it).
get_filename_component(_nlc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET llama::common)
  add_library(llama::common STATIC IMPORTED)
  set(_nlc_extra)
  foreach(_nlc_lib llama-common-base cpp-httplib)
    if(EXISTS "${_nlc_prefix}/lib/lib${_nlc_lib}.a")
      list(APPEND _nlc_extra "${_nlc_prefix}/lib/lib${_nlc_lib}.a")
    endif()
  endforeach()
  set_target_properties(llama::common PROPERTIES
    IMPORTED_LOCATION "${_nlc_prefix}/lib/libllama-common.a"
    INTERFACE_INCLUDE_DIRECTORIES "${_nlc_prefix}/include/llama-common"
    INTERFACE_LINK_LIBRARIES "llama;${_nlc_extra}")
endif()
EOF
{
  echo "commit=$COMMIT"
  echo "flags_hash=$FLAGS_HASH"
  echo "flags=${CMAKE_FLAGS[*]}"
  echo "compiler=$CXX_ID"
  echo "source=$SRC"
} >"$P/share/nunchi/llama-build.txt"
# The stamp is written last: its presence means the install is complete.
echo "commit=${COMMIT:0:8} built=$(date -u +%FT%TZ) took=$(($(date +%s) - START))s" >"$STAMP"
log "done in $(($(date +%s) - START))s"
echo "$PREFIX"
