#!/usr/bin/env bash
# tsan.sh [GTEST_FILTER] — ThreadSanitizer over the threaded tests: builds
# build-tsan/ (GCC -fsanitize=thread, no llama, no extraction layer) and runs
# service_test, http_test, judges_test's cascade tests (the waited and deferred
# escalations run on the LLM's threads), and the black-box suites that use the default judge
# (blackbox_test = contract + bad_input, hostile_test) against a TSan build of
# the `nunchi` binary itself. Every process (the tests and each server they
# start) writes its reports to build-tsan/tsan-logs/; the script prints each
# distinct warning once and exits 1 when there is any. Not part of the default
# CI run (about 10 min on two cores); test failures (the hostile suite's
# latency goals are for an uninstrumented binary) are reported, not fatal.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${NUNCHI_TSAN_BUILD:-$root/build-tsan}
filter=${1:-*}
if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  if command -v ccache >/dev/null 2>&1; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # -Wno-error=maybe-uninitialized: GCC 12 with TSan reports a false positive
  # inside std::variant in Result<Judgment>.
  cmake -S "$root" -B "$build" -G Ninja -DNUNCHI_WITH_LLAMA=OFF -DNUNCHI_WITH_EXTRACT=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS="-fsanitize=thread -Wno-error=maybe-uninitialized" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >"$build.configure.log" 2>&1 ||
    { cat "$build.configure.log"; exit 1; }
fi
export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake --build "$build" -j "${JOBS:-2}" --target service_test http_test judges_test nunchi blackbox_test \
  hostile_test
logs="$build/tsan-logs"
rm -rf "$logs"
mkdir -p "$logs"
export TSAN_OPTIONS="log_path=$logs/tsan second_deadlock_stack=1 halt_on_error=0 ${TSAN_OPTIONS:-}"
failed=()
for t in src/service/service_test src/http/http_test src/judges/judges_test tests/blackbox_test \
  tests/hostile_test; do
  echo "== tsan: $t"
  f=$filter
  # judges_test: its threaded tests are the cascade's; the rest are single-threaded.
  if [ "$t" = src/judges/judges_test ] && [ "$filter" = "*" ]; then f='Cascade*'; fi
  if ! "$build/$t" --gtest_filter="$f" >"$logs/$(basename "$t").out" 2>&1; then
    failed+=("$(basename "$t")")
  fi
  grep -E "^\[  (PASSED|FAILED) |tests? ran" "$logs/$(basename "$t").out" || true
done
reports=$(grep -l "WARNING: ThreadSanitizer" "$logs"/tsan.* 2>/dev/null || true)
count=$(cat $reports /dev/null | grep -c "WARNING: ThreadSanitizer" || true)
echo "== tsan: $count warning(s) in $(echo "$reports" | grep -c . || true) process(es); failing test binaries: ${failed[*]:-none}"
if [ "$count" -gt 0 ]; then
  # One line per distinct warning: its kind and the first frame of our code.
  for f in $reports; do
    awk '/WARNING: ThreadSanitizer/ { kind = $0; getline; n = 0 }
         kind && /#[0-9]+ .*nunchi/ && n == 0 { print kind " @ " $0; n = 1; kind = "" }' "$f"
  done | sed -E 's/ \(pid=[0-9]+\)//; s/ \([^ ]*\+0x[0-9a-f]+\)$//' | sort | uniq -c | sort -rn
  echo "(full reports: $logs/tsan.*)"
  exit 1
fi
