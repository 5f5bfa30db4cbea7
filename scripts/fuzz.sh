#!/usr/bin/env bash
# fuzz.sh [--short | --long SECONDS] — builds the libFuzzer targets (fuzz/)
# with Debian's clang into build-fuzz/ (ASan + UBSan, no llama, no extraction)
# and runs each: --short (the CI form) runs each for NUNCHI_FUZZ_SECONDS (5)
# on its kept corpus through CTest; --long N runs each for N seconds and
# prints the executions. Exits 77 (skipped) when clang is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:---short}
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: SKIPPED: clang++ not found (apt-get install clang) - the fuzz targets need libFuzzer"
  exit 77
fi
build=${NUNCHI_FUZZ_BUILD:-$root/build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DNUNCHI_FUZZ=ON \
    -DNUNCHI_WITH_LLAMA=OFF -DNUNCHI_WITH_EXTRACT=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
cmake --build "$build" -j "${JOBS:-2}" --target fuzz_request fuzz_model_output fuzz_sse fuzz_image fuzz_config
if [ "$mode" = --short ]; then
  exec ctest --test-dir "$build" -L fuzz --output-on-failure
fi
secs=${2:?usage: fuzz.sh --long SECONDS}
for t in request model_output sse image config; do
  mkdir -p "$build/fuzz/new_$t"
  "$build/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "$build/fuzz/new_$t" "$root/fuzz/corpus/$t" 2>&1 | grep -E "stat::number_of_executed_units|SUMMARY|crash|Done" || true
done
