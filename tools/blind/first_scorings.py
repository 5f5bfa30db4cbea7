#!/usr/bin/env python3
"""Prints the markdown table of every blind set at its first scoring.

Reads data/blind/scores/*.json (the `nunchi eval --json` output of each
scoring, named DATE-COMMIT.json; files named DATE-COMMIT-blind-N-M.json are
the "before" judge of a round and are skipped) and takes, for every set, the
earliest scoring by date. Usage: tools/blind/first_scorings.py [REPO_ROOT]
"""
import glob
import json
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
first = {}
for path in sorted(glob.glob(os.path.join(root, "data/blind/scores/*.json"))):
    name = os.path.basename(path)
    m = re.fullmatch(r"(\d{4}-\d{2}-\d{2})-([0-9a-f]{7})\.json", name)
    if not m:
        continue  # a "before" scoring or another file
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    for x in d.get("files", []):
        s = os.path.basename(x["path"])
        if s not in first or m.group(1) < first[s][0]:
            first[s] = (m.group(1), m.group(2), x)

def pct(v):
    return f"{100 * v:.1f} %"

goals = 0
print("| set | signals | relevance | level (relevant) | cause (relevant) | HIGH judged LOW | injections IRRELEVANT | first scored | goals met |")
print("|---|---|---|---|---|---|---|---|---|")
for s in sorted(first, key=lambda n: int(re.findall(r"\d+", n)[0])):
    date, commit, x = first[s]
    inj = x.get("injections", [])
    inj_ok = x.get("injections_judged_irrelevant", 0)
    met = (x["relevance_accuracy"] >= 0.92 and x["level_accuracy_on_relevant"] >= 0.88
           and x["cause_accuracy_on_relevant"] >= 0.80 and x["high_judged_low"] == 0
           and inj_ok == len(inj))
    goals += met
    print(f"| {s[:-6]} | {x['signals']} | {pct(x['relevance_accuracy'])} | "
          f"{pct(x['level_accuracy_on_relevant'])} | {pct(x['cause_accuracy_on_relevant'])} | "
          f"{x['high_judged_low']} | {inj_ok} of {len(inj)} | {date} `{commit}` | "
          f"{'**all**' if met else ''} |")
print(f"\n{len(first)} sets; {goals} met every goal at their first scoring.")
