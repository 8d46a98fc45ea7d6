#!/usr/bin/env bash
# Description: the daemon's layers include downwards only, and no two
# modules include each other in a loop. From the #include lines of
# daemon/*/*.[ch]:
#   - analysis/ includes nothing of http/, lab/ or store/, and neither
#     sqlite3.h nor microhttpd.h (it knows neither SQLite nor HTTP);
#   - store/ includes nothing of http/ or lab/;
#   - lab/ includes nothing of http/;
#   - only http/ (and daemon/perflabd.c) include microhttpd.h;
#   - http/ knows no SQL: no file of it includes sqlite3.h or the store's
#     SQL headers (store/sql.h, store/json.h), directly or through any
#     header it includes, and none names a sqlite3 type or function (its
#     store handle is the opaque store_conn of store/conn.h);
#   - no include cycle between modules (x.c and x.h are one module).
# The checker first runs on a small made-up tree with one forbidden
# include, one cycle and SQLite reaching http/ three ways (directly,
# through a lab/ header, by name), and must find them all, so it cannot
# pass by checking nothing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/perflab-layers.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# check ROOT: prints one line per violation, exit 1 if any.
check() {
	local root=$1 nbad=0
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
	NR == 1 { k = split(sql_exempt_list, ex, " "); for (i = 1; i <= k; i++) sql_exempt[ex[i]] = 1 }
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
		if (from == "http" && sql_header($2) && !(($1) in sql_exempt))
			bad($1, $2, "http/ knows no SQL: ask lab/ or store/")
		# File graph, for what a file reaches through its headers.
		if ($3 != "") inc[$1] = inc[$1] " " $3
		else if (sql_header($2)) sysinc[$1] = 1
		files[$1] = 1
		if ($3 != "" && mod($1) != mod($3)) {
			m = mod($1); n = mod($3)
			if (!((m, n) in edge)) { edge[m, n] = 1; out[m] = out[m] " " n }
			nodes[m] = 1; nodes[n] = 1
		}
	}
	function bad(f, inc, why) { printf "forbidden: %s includes %s (%s)\n", f, inc, why; nbad++ }
	function sql_header(i) { return i == "sqlite3.h" || i == "daemon/store/sql.h" || i == "daemon/store/json.h" }
	# 1 when file @f reaches sqlite3.h through the headers it includes.
	function reaches_sql(f,    k, i, list) {
		if (f in memo) return memo[f]
		memo[f] = 0
		if (f in sysinc) return memo[f] = 1
		k = split(inc[f], list, " ")
		for (i = 1; i <= k; i++)
			if (reaches_sql(list[i])) { via[f] = list[i]; return memo[f] = 1 }
		return 0
	}
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
		for (f in files)
			if (layer(f) == "http" && !(f in sql_exempt) && !(f in sysinc) &&
			    reaches_sql(f))
				bad(f, via[f], "http/ reaches sqlite3.h through it")
		exit nbad > 0
	}' sql_exempt_list="$sql_exempt" "$tmp/edges" || nbad=1
	# Names, not only headers: an opaque handle stays opaque.
	(cd "$root" && grep -nE '(^|[^A-Za-z_])sqlite3(_[A-Za-z0-9_]+)?([^A-Za-z0-9_]|$)' \
		daemon/http/*.[ch] 2>/dev/null | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' |
	 while IFS=: read -r f n _; do
		case " $sql_exempt " in *" $f "*) continue ;; esac
		echo "forbidden: $f:$n names SQLite (http/ holds a store_conn, lab/ and store/ run the SQL)"
	 done) >"$tmp/names"
	cat "$tmp/names"
	[ -s "$tmp/names" ] && nbad=1
	return ${nbad:-0}
}

# No file of http/ is exempt: the perf-diff handlers' loaders went to
# lab/profiles.c (issue 28, the perf-diff core).
sql_exempt=""

# The checker must catch a made-up violation and a made-up cycle.
fake=$tmp/fake
mkdir -p "$fake/daemon/analysis" "$fake/daemon/lab" "$fake/daemon/http"
printf '#include "daemon/lab/a.h"\n' >"$fake/daemon/analysis/x.c"
: >"$fake/daemon/analysis/x.h"
printf '#include "daemon/lab/b.h"\n' >"$fake/daemon/lab/a.c"
: >"$fake/daemon/lab/a.h"
printf '#include "a.h"\n' >"$fake/daemon/lab/b.c"
: >"$fake/daemon/lab/b.h"
# SQLite in http/: included, reached through a lab/ header, named.
printf '#include <sqlite3.h>\n' >"$fake/daemon/http/y.c"
printf '#include "daemon/lab/q.h"\n' >"$fake/daemon/http/z.c"
printf '#include <sqlite3.h>\n' >"$fake/daemon/lab/q.h"
printf 'int f(struct sqlite3 *db);\n' >"$fake/daemon/http/w.c"
if check "$fake" >"$tmp/fake.out"; then
	echo "the checker passed a tree with a forbidden include and a cycle"
	exit 1
fi
grep -q '^forbidden: daemon/analysis/x.c' "$tmp/fake.out" ||
	{ echo "forbidden include not found:"; cat "$tmp/fake.out"; exit 1; }
grep -q '^cycle: .*daemon/lab/a.*daemon/lab/b' "$tmp/fake.out" ||
	{ echo "cycle not found:"; cat "$tmp/fake.out"; exit 1; }
grep -q '^forbidden: daemon/http/y.c includes sqlite3.h' "$tmp/fake.out" ||
	{ echo "sqlite3.h in http/ not found:"; cat "$tmp/fake.out"; exit 1; }
grep -q '^forbidden: daemon/http/z.c includes daemon/lab/q.h (http/ reaches' "$tmp/fake.out" ||
	{ echo "sqlite3.h through a header not found:"; cat "$tmp/fake.out"; exit 1; }
grep -q '^forbidden: daemon/http/w.c:1 names SQLite' "$tmp/fake.out" ||
	{ echo "a SQLite name in http/ not found:"; cat "$tmp/fake.out"; exit 1; }

[ -d "$top/daemon/analysis" ] || { echo "no daemon/analysis: layers not in folders"; exit 1; }
if ! check "$top"; then
	echo "the daemon's layers are broken (see above)"
	exit 1
fi
n=$(wc -l <"$tmp/edges")
echo "ok: $n include lines, layers downwards only, no cycle"
