#!/usr/bin/env bash
# verify_unit_test.sh UNIT NUNCHI_BINARY — `systemd-analyze verify` over the
# shipped unit. The unit names /usr/bin/nunchi, which a build machine lacks,
# so a copy pointing at the built binary is verified. Exits 77 (CTest:
# skipped) without systemd-analyze.
set -euo pipefail
unit=${1:?usage: verify_unit_test.sh UNIT NUNCHI_BINARY}
bin=$(realpath "${2:?usage: verify_unit_test.sh UNIT NUNCHI_BINARY}")
if ! command -v systemd-analyze >/dev/null 2>&1; then
  echo "unit verify: SKIPPED, systemd-analyze not found (Debian: systemd)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|/usr/bin/nunchi|$bin|g" "$unit" > "$tmp/nunchi.service"
grep -q '^Restart=on-failure' "$tmp/nunchi.service"
grep -q '^StateDirectory=nunchi' "$tmp/nunchi.service"
grep -q '^NoNewPrivileges=yes' "$tmp/nunchi.service"
out=$(SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$tmp/nunchi.service" 2>&1) || {
  echo "$out"; echo "unit verify: FAILED"; exit 1; }
# verify exits 0 on some warnings; any line about our unit is a finding.
if echo "$out" | grep -i "nunchi.service" ; then echo "unit verify: FAILED (findings above)"; exit 1; fi
echo "$out"
echo "unit verify: clean"
