#!/usr/bin/env bash
# lint.sh SPEC — Redocly's recommended rules over the OpenAPI file: clean means
# no errors and no warnings. Redocly CLI comes from npm through npx, cached in
# ~/.cache/nunchi/npm (outside the repository). Exits 77 (CTest: skipped) with
# a message when npx is missing or the npm registry cannot be reached and
# nothing is cached. The version is pinned (REDOCLY_CLI_VERSION overrides it)
# so that a new release's rules cannot turn a clean spec red overnight.
set -uo pipefail
spec=${1:?usage: lint.sh SPEC}
if ! command -v npx >/dev/null 2>&1; then
  echo "openapi lint: SKIPPED, npx not found (install Debian's npm to run @redocly/cli)"
  exit 77
fi
export NPM_CONFIG_CACHE=${NPM_CONFIG_CACHE:-$HOME/.cache/nunchi/npm}
export NPM_CONFIG_UPDATE_NOTIFIER=false REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
version=${REDOCLY_CLI_VERSION:-2.77.0}
mkdir -p "$NPM_CONFIG_CACHE"
out=$(npx --yes "@redocly/cli@$version" lint --format=stylish "$spec" 2>&1)
rc=$?
echo "$out" | grep -v '[║╔╚]'
if [ $rc -ne 0 ] && echo "$out" | grep -qE 'ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|network request'; then
  echo "openapi lint: SKIPPED, the npm registry is unreachable and @redocly/cli is not cached"
  exit 77
fi
[ $rc -eq 0 ] || { echo "openapi lint: FAILED (errors)"; exit 1; }
if echo "$out" | grep -qE '^ +[0-9]+:[0-9]+ +warning'; then
  echo "openapi lint: FAILED (warnings count too)"
  exit 1
fi
echo "openapi lint: clean (@redocly/cli $version)"
