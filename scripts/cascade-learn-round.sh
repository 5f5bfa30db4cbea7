#!/usr/bin/env bash
# cascade-learn-round.sh [BUILD_DIR] — one round of learning from a SIMULATED
# LLM (docs/quality.md, "Learning from the LLM"): for each blind set as the
# traffic, the cascade with the oracle at p = 0.95 and share 0.2 writes the
# LLM's verdicts, the classifier is retrained on the shipped data plus them,
# and the default judge is scored on the other two sets before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${1:-build}/src/app/nunchi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sets=(data/blind/blind-1.jsonl data/blind/blind-2.jsonl data/blind/blind-3.jsonl)
for t in 0 1 2; do
  others=()
  for o in 0 1 2; do [ "$o" != "$t" ] && others+=(--data "${sets[$o]}"); done
  "$bin" simulate-cascade --data "${sets[$t]}" --p 0.95 --share 0.2 --export "$work/llm.jsonl" >/dev/null
  "$bin" train --data "$work/llm.jsonl" --out "$work/clf.model" >/dev/null
  echo "== traffic ${sets[$t]} ($(wc -l <"$work/llm.jsonl") LLM verdicts)"
  echo "-- before"; "$bin" eval "${others[@]}" | grep -E '^==|relevance accuracy|level accuracy'
  echo "-- after";  "$bin" eval --classifier "$work/clf.model" "${others[@]}" | grep -E '^==|relevance accuracy|level accuracy'
done
