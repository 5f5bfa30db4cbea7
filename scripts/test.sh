#!/usr/bin/env bash
# test.sh — sets everything up on a fresh Debian 12 machine, builds nunchi and
# runs the whole test suite (unit, black-box, model tests on generated
# models), then builds the unit tests again under ASan+UBSan and runs them.
# Safe to run twice; heavy builds are cached (~/.cache/nunchi for llama.cpp,
# build-test/ and build-asan/ for ours).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export CTEST_OUTPUT_ON_FAILURE=1

echo "== test: build (RelWithDebInfo) =="
scripts/build.sh "$root/build-test" -DCMAKE_BUILD_TYPE=RelWithDebInfo
echo "== test: the whole suite =="
ctest --test-dir "$root/build-test" -j 2 --timeout 900

echo "== test: unit tests under AddressSanitizer + UndefinedBehaviorSanitizer =="
NUNCHI_WITH_LLAMA=OFF scripts/build.sh "$root/build-asan" -DCMAKE_BUILD_TYPE=Debug \
  -DNUNCHI_SANITIZE=ON
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir "$root/build-asan" -j 2 --timeout 900 -L unit
