#!/usr/bin/env bash
# package_test.sh BUILD_DIR — builds the .deb with CPack and tests it twice:
#  1. unpacked into a scratch root (dpkg-deb -x: no change to this machine):
#     the layout, the conffile, --version and one analysis cycle;
#  2. installed for real (only under CI=true or as root; elsewhere said and
#     skipped): `dpkg -i` (then `apt-get install -f` when dependencies are
#     missing), `systemd-analyze verify` of the installed unit, the installed
#     /usr/bin/nunchi's --version and one cycle against it, started as a child
#     with the installed /etc/nunchi/nunchi.toml (as the unit does; when
#     systemd is PID 1, the unit itself is started too), then `dpkg -r` (the
#     files go, the conffile stays) and `dpkg --purge` (the conffile goes).
# Safe to run twice: an install left by an interrupted run of this test is
# recognised by a marker and replaced; a nunchi installed by anyone else is
# never touched (that part is then skipped, or fails under CI=true).
set -euo pipefail
for tool in cpack dpkg-deb curl; do
  command -v $tool >/dev/null 2>&1 || { echo "package test: SKIPPED, no $tool"; exit 77; }
done
build=$(cd "${1:?usage: package_test.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
pid=""
marker=/var/lib/nunchi-package-test.installed
installed_by_us=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null
  if [ -n "$installed_by_us" ]; then
    dpkg --purge nunchi >/dev/null 2>&1 || true
    rm -f "$marker"
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$tmp" && cpack --config "$build/CPackConfig.cmake" -B "$tmp/out" >/dev/null)
deb=$(ls "$tmp"/out/nunchi_*.deb)
echo "package: $deb"
dpkg-deb --info "$deb" | grep -E "Package:|Version:|Depends:"

files=(usr/bin/nunchi usr/lib/systemd/system/nunchi.service etc/nunchi/nunchi.toml
       usr/share/nunchi/openapi.yaml usr/share/doc/nunchi/deploy.md
       usr/share/doc/nunchi/examples/nginx-nunchi.conf)

# cycle BIN DATA_DIR [env...]: starts BIN serve on a free port, sends one
# cycle, checks the answer, stops it.
cycle() {
  local bin=$1 data=$2
  shift 2
  env "$@" "$bin" serve --port 0 --data-dir "$data" --log-format text 2>"$tmp/log" &
  pid=$!
  local port=""
  for _ in $(seq 1 200); do
    port=$(grep -o 'listening on http://[^ ]*' "$tmp/log" | sed 's/.*://' | head -1 || true)
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  [ -n "$port" ] || { cat "$tmp/log"; echo "$bin did not start"; exit 1; }
  local body='{"analyzed_at":"2026-11-29T18:40:00+09:00","spots":[{"spot_id":"s1","bundles":[{"post_id":"p1","post":{"signal_id":"p1","author_id":"u1","created_at":"2026-11-29T18:35:00+09:00","text":"사람 너무 많아요 줄이 길어요"}}]}],"new_signals":[{"kind":"POST","signal_id":"p1","post_id":"p1"}]}'
  local out
  out=$(curl -fsS -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/v1/congestion-analyses")
  echo "$out" | grep -q '"analysis_status":"OK"' || { echo "cycle failed: $out"; exit 1; }
  curl -fsS "http://127.0.0.1:$port/livez" >/dev/null || { echo "/livez failed"; exit 1; }
  echo "package: one cycle answered by $bin: $out"
  kill "$pid"
  wait "$pid" || true
  pid=""
}

# 1. The scratch root.
root="$tmp/root"
dpkg-deb -x "$deb" "$root"
for f in "${files[@]}"; do
  [ -e "$root/$f" ] || { echo "missing from the package: /$f"; exit 1; }
done
dpkg-deb --ctrl-tarfile "$deb" | tar -tf - | grep -q conffiles || { echo "no conffiles"; exit 1; }
"$root/usr/bin/nunchi" --version
cycle "$root/usr/bin/nunchi" "$tmp/data"

# 2. The real install.
if [ "${CI:-}" != true ] && [ "$(id -u)" -ne 0 ]; then
  echo "package: the dpkg -i part is SKIPPED (it needs root or CI=true)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then echo "package: CI=true but not root: cannot dpkg -i"; exit 1; fi
if dpkg-query -W -f='${Status}' nunchi 2>/dev/null | grep -q 'ok installed'; then
  if [ ! -e "$marker" ]; then
    echo "package: a nunchi package is installed here and not by this test: left alone"
    [ "${CI:-}" = true ] && exit 1
    exit 0
  fi
  echo "package: removing the install an interrupted run of this test left"
  dpkg --purge nunchi >/dev/null
fi
touch "$marker"
installed_by_us=1
if ! dpkg -i "$deb"; then
  echo "package: dpkg -i did not finish; apt-get install -f for the dependencies"
  DEBIAN_FRONTEND=noninteractive apt-get install -f -y -qq -o DPkg::Lock::Timeout=120
fi
dpkg-query -W -f='${Status}\n' nunchi | grep -q 'install ok installed' ||
  { echo "package: nunchi is not installed after dpkg -i"; exit 1; }
for f in "${files[@]}"; do
  [ -e "/$f" ] || { echo "not installed: /$f"; exit 1; }
done
/usr/bin/nunchi --version
if command -v systemd-analyze >/dev/null 2>&1; then
  out=$(SYSTEMD_LOG_LEVEL=notice systemd-analyze verify /usr/lib/systemd/system/nunchi.service 2>&1) ||
    { echo "$out"; echo "package: systemd-analyze verify of the installed unit failed"; exit 1; }
  if echo "$out" | grep -i "nunchi.service"; then echo "package: unit findings above"; exit 1; fi
  echo "package: systemd-analyze verify of the installed unit: clean"
fi
# As the unit runs it: the installed config file through NUNCHI_CONFIG.
cycle /usr/bin/nunchi "$tmp/installed-data" NUNCHI_CONFIG=/etc/nunchi/nunchi.toml
if [ -d /run/systemd/system ]; then  # systemd is PID 1 (sd_booted)
  systemctl daemon-reload
  systemctl start nunchi
  systemctl is-active --quiet nunchi || { journalctl -u nunchi -n 50 --no-pager; exit 1; }
  curl -fsS http://127.0.0.1:8080/readyz >/dev/null || { echo "unit: /readyz failed"; exit 1; }
  echo "package: the unit started and /readyz answered"
  systemctl stop nunchi
else
  echo "package: systemd is not PID 1 here ($(ps -p 1 -o comm= 2>/dev/null || echo '?')): the unit is verified, not started"
fi

dpkg -r nunchi >/dev/null
for f in usr/bin/nunchi usr/lib/systemd/system/nunchi.service usr/share/nunchi/openapi.yaml \
         usr/share/doc/nunchi/deploy.md; do
  [ ! -e "/$f" ] || { echo "package: /$f is still there after dpkg -r"; exit 1; }
done
[ -e /etc/nunchi/nunchi.toml ] || { echo "package: dpkg -r removed the conffile"; exit 1; }
dpkg --purge nunchi >/dev/null
[ ! -e /etc/nunchi/nunchi.toml ] || { echo "package: /etc/nunchi/nunchi.toml survived --purge"; exit 1; }
if dpkg-query -W -f='${Status}' nunchi 2>/dev/null | grep -qv 'not-installed'; then
  echo "package: still known to dpkg after --purge"; exit 1
fi
rm -f "$marker"
installed_by_us=""
echo "package: installed with dpkg -i, ran a cycle, removed and purged: nothing left"
