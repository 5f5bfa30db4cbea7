#!/usr/bin/env bash
# fuzz.sh [--short | --long SECONDS [TARGET...]] — builds the libFuzzer targets
# (fuzz/) with Debian's clang into build-fuzz/ (ASan + UBSan, no llama, no
# extraction layer: the image target compiles image_input.cpp alone) and runs
# each: --short (the CI form) runs each for NUNCHI_FUZZ_SECONDS (5) on its kept
# corpus through CTest; --long N runs each (or the TARGETs named: request
# model_output sse image config) for N seconds, one after another, and prints
# one line per target: executions, seconds, crashes. Crashing inputs land in
# build-fuzz/fuzz/crash_<target>/. NUNCHI_FUZZ_FORK=N runs --long in
# libFuzzer's fork mode, N worker processes on one corpus. Exits 77 (skipped)
# when clang is missing, 1 when any target crashed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:---short}
if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: SKIPPED: clang++ not found (apt-get install clang) - the fuzz targets need libFuzzer"
  exit 77
fi
build=${NUNCHI_FUZZ_BUILD:-$root/build-fuzz}
targets=(request model_output sse image config)
if [ ! -f "$build/CMakeCache.txt" ]; then
  mkdir -p "$build"
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DNUNCHI_FUZZ=ON \
    -DNUNCHI_WITH_LLAMA=OFF -DNUNCHI_WITH_EXTRACT=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
fi
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]/#/fuzz_}"
if [ "$mode" = --short ]; then
  exec ctest --test-dir "$build" -L fuzz --output-on-failure
fi
secs=${2:?usage: fuzz.sh --long SECONDS [TARGET...]}
shift 2
[ $# -gt 0 ] && targets=("$@")
# Speed (see docs/reliability.md, "Fuzzing"): no malloc stack traces, no
# entropic power schedule (its per-run feature bookkeeping was a quarter of
# the time), and each target's own -max_len (fuzz/max_len.txt).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=0}
crashed=0
for t in "${targets[@]}"; do
  max_len=$(awk -v t="$t" '$1 == t { print $2 }' "$root/fuzz/max_len.txt")
  mkdir -p "$build/fuzz/new_$t" "$build/fuzz/crash_$t"
  log="$build/fuzz/long_$t.log"
  start=$(date +%s)
  rc=0
  # NUNCHI_FUZZ_FORK=N: libFuzzer's fork mode, N worker processes on one
  # shared corpus (executions counted over all of them).
  fork=()
  [ -n "${NUNCHI_FUZZ_FORK:-}" ] && fork=(-fork="$NUNCHI_FUZZ_FORK")
  "$build/fuzz/fuzz_$t" "${fork[@]}" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -entropic=0 \
    -max_len="${max_len:-4096}" -print_final_stats=1 -artifact_prefix="$build/fuzz/crash_$t/" \
    "$build/fuzz/new_$t" "$root/fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
  end=$(date +%s)
  execs=$(awk '/stat::number_of_executed_units/ { print $NF }' "$log")
  # Fork mode prints no final stats: its last "#N:" line is the total.
  [ -z "$execs" ] && execs=$(sed -n 's/^#\([0-9]*\): cov:.*/\1/p' "$log" | tail -n 1)
  crashes=$(find "$build/fuzz/crash_$t" -type f | wc -l)
  echo "fuzz_$t: executions ${execs:-?} in $((end - start)) s, crashes $crashes, exit $rc"
  [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ] && { crashed=1; grep -E "SUMMARY|ERROR" "$log" || true; }
done
exit $crashed
