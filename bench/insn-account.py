#!/usr/bin/env python3
"""Per-IO instruction accounting from perflab-insn plugin output.

  insn-account.py --sysmap System.map NAME=PLUGIN_OUT:BINARY ...

For each tool: the window's instructions split into user (addresses below
the user-space top, symbolised with nm of the tool's static BINARY) and
kernel (System.map), divided by the number of IOs in the window: the
entries of the kernel's io_read (one per IO; --per SYMBOL to change it),
counted at its first instruction. With two tools, the symbols are compared
side by side, largest per-IO difference first. Figures only.
"""
import argparse
import bisect
import subprocess
import sys

USER_TOP = 0x0000800000000000


def symtab_sysmap(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3 and p[1] in "tTwW":
                syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return syms


def symtab_nm(binary):
    out = subprocess.run(["nm", "-n", "--defined-only", binary],
                         capture_output=True, text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        p = line.split()
        if len(p) >= 3 and p[1] in "tTwWiI":
            syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return syms


def parse(path):
    counts = {}
    with open(path) as f:
        lines = f.read().splitlines()
    head = {}
    i = 0
    while i < len(lines) and not lines[i].startswith("addrs"):
        p = lines[i].split(None, 1)
        head[p[0]] = p[1] if len(p) > 1 else ""
        i += 1
    for line in lines[i + 1:]:
        if line == "end":
            break
        a, c = line.split()
        counts[int(a, 16)] = int(c)
    return head, counts


def lookup(syms, keys, addr):
    i = bisect.bisect_right(keys, addr) - 1
    return syms[i][1] if i >= 0 else "?"


def account(plugin_out, binary, ksyms, per):
    head, counts = parse(plugin_out)
    usyms = symtab_nm(binary)
    kkeys = [a for a, _ in ksyms]
    ukeys = [a for a, _ in usyms]
    entry = {a: n for a, n in ksyms}
    per_addr = [a for a, n in ksyms if n == per]
    ios = sum(counts.get(a, 0) for a in per_addr)
    sym = {}
    user = kern = 0
    for a, c in counts.items():
        if a < USER_TOP:
            user += c
            name = "u:" + lookup(usyms, ukeys, a)
        else:
            kern += c
            name = "k:" + lookup(ksyms, kkeys, a)
        sym[name] = sym.get(name, 0) + c
    return {"head": head, "ios": ios, "user": user, "kern": kern, "sym": sym}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sysmap", required=True)
    ap.add_argument("--per", default="io_read")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("tools", nargs="+", help="NAME=PLUGIN_OUT:BINARY")
    a = ap.parse_args()
    ksyms = symtab_sysmap(a.sysmap)
    res = []
    for t in a.tools:
        name, rest = t.split("=", 1)
        out, binary = rest.split(":", 1)
        r = account(out, binary, ksyms, a.per)
        if not r["ios"]:
            sys.exit(f"{name}: no entries of {a.per} in the window")
        res.append((name, r))
    print(f"{'tool':<8} {'window insns':>14} {'IOs':>10} {'user/IO':>9} "
          f"{'kernel/IO':>10} {'total/IO':>9}")
    for name, r in res:
        n = r["ios"]
        print(f"{name:<8} {r['user'] + r['kern']:>14} {n:>10} "
              f"{r['user'] / n:>9.2f} {r['kern'] / n:>10.2f} "
              f"{(r['user'] + r['kern']) / n:>9.2f}")
    names = set()
    for _, r in res:
        names |= set(r["sym"])
    rows = []
    for s in names:
        v = [r["sym"].get(s, 0) / r["ios"] for _, r in res]
        rows.append((max(v) - min(v) if len(v) > 1 else v[0], s, v))
    rows.sort(reverse=True)
    print(f"\nper IO, by symbol ({'largest difference' if len(res) > 1 else 'largest'} first; u: user, k: kernel)")
    print(f"{'symbol':<44}" + "".join(f"{n:>10}" for n, _ in res) +
          ("   diff" if len(res) == 2 else ""))
    for d, s, v in rows[:a.top]:
        line = f"{s[:44]:<44}" + "".join(f"{x:>10.2f}" for x in v)
        if len(res) == 2:
            line += f" {v[0] - v[1]:>+8.2f}"
        print(line)


if __name__ == "__main__":
    main()
