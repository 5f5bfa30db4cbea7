#!/usr/bin/env bash
# run.sh [serve flags...] — sets everything up on a fresh Debian 12 machine and
# starts `nunchi serve` on the embedded default judge (no model file needed).
# Defaults: 127.0.0.1:8080, data in ./nunchi-data. Any `nunchi serve` flag
# may follow, e.g. scripts/run.sh --port 9090 --model model.gguf
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() {
  cat <<'USAGE'
usage: scripts/run.sh [nunchi serve flags...]

Installs what nunchi needs (Debian packages, the pinned llama.cpp in
~/.cache/nunchi; about 15 minutes on 2 cores the first time, seconds after),
builds build/ and runs `nunchi serve` on the embedded default judge:
127.0.0.1:8080, data in ./nunchi-data.

Common flags (every flag also reads NUNCHI_<FLAG> and a key in --config FILE):
  --host ADDR            address to listen on (127.0.0.1)
  --port N               port, 1..65535, or 0 for any free port (8080)
  --data-dir DIR         judgment store and decision log (./nunchi-data)
  --deadline-ms N        answer within N ms, N > 0 (45000)
  --model FILE.gguf      in-process LLM for the signals the default judge is unsure of (cascade)
  --config FILE          TOML file of the same flags (see nunchi.example.toml)
  --log-format json|text and --log-level LEVEL for the server log

Exit codes: 0 ok, 1 runtime error, 2 usage or configuration error.
Once built, `build/src/app/nunchi serve --help` lists every flag.
USAGE
}
for a in "$@"; do
  case "$a" in
    -h|--help)
      usage
      if [ -x "$root/build/src/app/nunchi" ]; then
        echo
        "$root/build/src/app/nunchi" serve --help
      fi
      exit 0 ;;
  esac
done
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release
exec "$root/build/src/app/nunchi" serve "$@"
