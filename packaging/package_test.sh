#!/usr/bin/env bash
# package_test.sh BUILD_DIR — builds the .deb with CPack, unpacks it into a
# scratch root (dpkg-deb -x: no change to this machine), checks the layout,
# runs the packaged binary's --version and one analysis cycle against it, and
# removes the scratch root. A real `dpkg -i` + systemd start is in
# docs/deploy.md (it needs a machine of its own).
set -euo pipefail
for tool in cpack dpkg-deb curl; do
  command -v $tool >/dev/null 2>&1 || { echo "package test: SKIPPED, no $tool"; exit 77; }
done
build=$(cd "${1:?usage: package_test.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -B "$tmp/out" >/dev/null)
deb=$(ls "$tmp"/out/nunchi_*.deb)
echo "package: $deb"
dpkg-deb --info "$deb" | grep -E "Package:|Version:|Depends:"
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
for f in usr/bin/nunchi usr/lib/systemd/system/nunchi.service etc/nunchi/nunchi.toml \
         usr/share/nunchi/openapi.yaml usr/share/doc/nunchi/deploy.md; do
  [ -e "$root/$f" ] || { echo "missing from the package: /$f"; exit 1; }
done
dpkg-deb --ctrl-tarfile "$deb" | tar -tf - | grep -q conffiles || { echo "no conffiles"; exit 1; }
"$root/usr/bin/nunchi" --version
data="$tmp/data"
"$root/usr/bin/nunchi" serve --port 0 --data-dir "$data" --log-format text 2>"$tmp/log" &
pid=$!
port=""
for _ in $(seq 1 200); do
  port=$(grep -o 'listening on http://[^ ]*' "$tmp/log" | sed 's/.*://' | head -1 || true)
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { cat "$tmp/log"; echo "the packaged binary did not start"; exit 1; }
body='{"analyzed_at":"2026-11-29T18:40:00+09:00","spots":[{"spot_id":"s1","bundles":[{"post_id":"p1","post":{"signal_id":"p1","author_id":"u1","created_at":"2026-11-29T18:35:00+09:00","text":"사람 너무 많아요 줄이 길어요"}}]}],"new_signals":[{"kind":"POST","signal_id":"p1","post_id":"p1"}]}'
out=$(curl -fsS -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/v1/congestion-analyses")
echo "$out" | grep -q '"analysis_status":"OK"' || { echo "cycle failed: $out"; exit 1; }
echo "package: one cycle answered by the packaged binary: $out"
