#!/usr/bin/env python3
"""Exact perf diff of bench JSONs that carry exact_profile (contracts §1).

  exact_diff.py --base A.json [A2.json...] --new B.json [B2.json...]
                [--top N] [--json OUT]

Per symbol: instructions per IO (mean over the runs of a side), delta per
IO, and the spread across the runs of each side (max - min per IO), sorted
by |delta|. The first row is the total. --json writes every row.
"""
import argparse
import json
import sys


def load(paths):
    runs = []
    for p in paths:
        with open(p) as f:
            b = json.load(f)
        e = b.get("exact_profile")
        if not e or not e.get("ios"):
            sys.exit("%s: no exact_profile" % p)
        per = {(s["dso"], s["sym"]): s["insns"] / e["ios"] for s in e["symbols"]}
        per[("", "TOTAL")] = e["total"] / e["ios"]
        runs.append(per)
    return runs


def side(runs, key):
    v = [r.get(key, 0.0) for r in runs]
    return sum(v) / len(v), max(v) - min(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", nargs="+", required=True)
    ap.add_argument("--new", nargs="+", required=True)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--json")
    a = ap.parse_args()
    base, new = load(a.base), load(a.new)
    keys = set()
    for r in base + new:
        keys.update(r)
    rows = []
    for k in keys:
        b, bs = side(base, k)
        n, ns = side(new, k)
        rows.append({"dso": k[0], "sym": k[1], "base": b, "new": n,
                     "delta": n - b, "spread": max(bs, ns)})
    rows.sort(key=lambda r: (r["sym"] != "TOTAL", -abs(r["delta"]), r["sym"]))
    print("%-38s %12s %12s %10s %8s" % ("symbol (instr/IO)", "base", "new",
                                        "delta", "spread"))
    for r in rows[:a.top + 1]:
        name = r["sym"] if r["sym"] == "TOTAL" else "%s %s" % (
            "[k]" if r["dso"].startswith("[kernel") else "[u]", r["sym"])
        print("%-38s %12.3f %12.3f %+10.3f %8.3f" % (
            name[:38], r["base"], r["new"], r["delta"], r["spread"]))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f)


if __name__ == "__main__":
    main()
