#!/usr/bin/env bash
# Description: the daemon's layers include downwards only, and no two
# modules include each other in a loop. From the #include lines of
# daemon/*/*.[ch]:
#   - analysis/ includes nothing of http/, lab/ or store/, and neither
#     sqlite3.h nor microhttpd.h (it knows neither SQLite nor HTTP);
#   - store/ includes nothing of http/ or lab/;
#   - lab/ includes nothing of http/;
#   - only http/ (and daemon/perflabd.c) include microhttpd.h;
#   - no include cycle between modules (x.c and x.h are one module).
# The checker first runs on a small made-up tree with one forbidden
# include and one cycle, and must find both, so it cannot pass by
# checking nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/perflab-layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# check ROOT: prints one line per violation, exit 1 if any.
check() {
	local root=$1
	(cd "$root" && find daemon -name '*.[ch]' | sort |
	 while read -r f; do
		# "file<TAB>include<TAB>kind" for every #include line.
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^">]*\)[">].*/\1\t\2/p' "$f" |
		while IFS=$'\t' read -r kind inc; do
			t=""
			if [ "$kind" = '"' ]; then
				if [ -f "$(dirname "$f")/$inc" ]; then
					t=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
				elif [ -f "$inc" ]; then
					t=$inc
				fi
			fi
			printf '%s\t%s\t%s\n' "$f" "$inc" "$t"
		done
	 done) >"$tmp/edges"
	awk -F'\t' '
	function layer(p) { split(p, a, "/"); return (a[1] == "daemon" && a[3] != "") ? a[2] : "" }
	function mod(p) { sub(/\.[ch]$/, "", p); return p }
	{
		from = layer($1); to = layer($3); base = $2; sub(/.*\//, "", base)
		if (from == "analysis" && (to == "http" || to == "lab" || to == "store"))
			bad($1, $2, "analysis/ includes " to "/")
		if (from == "analysis" && (base == "sqlite3.h" || base == "microhttpd.h"))
			bad($1, $2, "analysis/ knows neither SQLite nor HTTP")
		if (from == "store" && (to == "http" || to == "lab"))
			bad($1, $2, "store/ includes " to "/")
		if (from == "lab" && to == "http")
			bad($1, $2, "lab/ includes http/")
		if (base == "microhttpd.h" && from != "http" && $1 != "daemon/perflabd.c")
			bad($1, $2, "only http/ speaks libmicrohttpd")
		if ($3 != "" && mod($1) != mod($3)) {
			m = mod($1); n = mod($3)
			if (!((m, n) in edge)) { edge[m, n] = 1; out[m] = out[m] " " n }
			nodes[m] = 1; nodes[n] = 1
		}
	}
	function bad(f, inc, why) { printf "forbidden: %s includes %s (%s)\n", f, inc, why; nbad++ }
	# Depth-first search; a grey node reached again closes a cycle.
	function dfs(v,    k, i, w, list) {
		color[v] = 1; stack[++sp] = v
		k = split(out[v], list, " ")
		for (i = 1; i <= k; i++) {
			w = list[i]
			if (color[w] == 1) { cycle(w); continue }
			if (!color[w]) dfs(w)
		}
		color[v] = 2; sp--
	}
	function cycle(w,    i, s) {
		for (i = sp; i > 0 && stack[i] != w; i--) ;
		s = stack[i]
		for (i++; i <= sp; i++) s = s " -> " stack[i]
		printf "cycle: %s -> %s\n", s, w; nbad++
	}
	END {
		for (v in nodes) if (!color[v]) dfs(v)
		exit nbad > 0
	}' "$tmp/edges"
}

# The checker must catch a made-up violation and a made-up cycle.
fake=$tmp/fake
mkdir -p "$fake/daemon/analysis" "$fake/daemon/lab" "$fake/daemon/http"
printf '#include "daemon/lab/a.h"\n' >"$fake/daemon/analysis/x.c"
: >"$fake/daemon/analysis/x.h"
printf '#include "daemon/lab/b.h"\n' >"$fake/daemon/lab/a.c"
: >"$fake/daemon/lab/a.h"
printf '#include "a.h"\n' >"$fake/daemon/lab/b.c"
: >"$fake/daemon/lab/b.h"
if check "$fake" >"$tmp/fake.out"; then
	echo "the checker passed a tree with a forbidden include and a cycle"
	exit 1
fi
grep -q '^forbidden: daemon/analysis/x.c' "$tmp/fake.out" ||
	{ echo "forbidden include not found:"; cat "$tmp/fake.out"; exit 1; }
grep -q '^cycle: .*daemon/lab/a.*daemon/lab/b' "$tmp/fake.out" ||
	{ echo "cycle not found:"; cat "$tmp/fake.out"; exit 1; }

[ -d "$top/daemon/analysis" ] || { echo "no daemon/analysis: layers not in folders"; exit 1; }
if ! check "$top"; then
	echo "the daemon's layers are broken (see above)"
	exit 1
fi
n=$(wc -l <"$tmp/edges")
echo "ok: $n include lines, layers downwards only, no cycle"
