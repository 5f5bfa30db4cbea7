#!/usr/bin/env bash
# scripts/run.sh --help prints its usage at once, without building: run from a
# copy of the script in an empty tree, where a build would fail.
set -euo pipefail
src=${1:?usage: run_help_test.sh REPO_ROOT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/scripts"
cp "$src/scripts/run.sh" "$tmp/scripts/"
printf '#!/bin/sh\necho "build.sh must not run for --help" >&2\nexit 99\n' > "$tmp/scripts/build.sh"
chmod +x "$tmp/scripts/build.sh"
out=$("$tmp/scripts/run.sh" --help)
echo "$out" | grep -q -- "--port" || { echo "no usage in: $out"; exit 1; }
echo "$out" | grep -q "Exit codes" || { echo "no exit codes in: $out"; exit 1; }
echo "run.sh --help: usage printed without a build"
