#!/usr/bin/env bash
# run.sh [serve flags...] — sets everything up on a fresh Debian 12 machine and
# starts `nunchi serve` on the embedded default judge (no model file needed).
# Defaults: 127.0.0.1:8080, data in ./nunchi-data. Any `nunchi serve` flag
# may follow, e.g. scripts/run.sh --port 9090 --model model.gguf
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh" "$root/build" -DCMAKE_BUILD_TYPE=Release
exec "$root/build/src/app/nunchi" serve "$@"
