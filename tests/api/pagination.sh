#!/usr/bin/env bash
# Description: the experiment and alert lists page by keyset cursor:
# following `next` (before=NEXT) from the first page visits every
# experiment (all of them, by state) and every alert (all, by state, by
# kind) exactly once, newest first, as the database lists them; the last
# page has next null; an experiment added between two pages does not
# shift the next page; a bad limit or cursor is 400.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
"$PERFLABD" migrate --db "$DB" >/dev/null || fail "migrate"
sqlite3 "$DB" -cmd "CREATE TEMP TABLE scale AS SELECT 230 AS experiments, 2 AS samples, 3 AS symbols, 50 AS symtab" \
	<"$TOP/bench/scale-fill.sql" || fail "fill"
# A few more alerts of other kinds and states than the fill makes.
sql "INSERT INTO alerts (kind, state, title, created_at, updated_at)
     SELECT 'change_point', 'fixed', 'cp', 0, 0 FROM experiments WHERE id % 17 = 0;
     INSERT INTO alerts (kind, state, title, experiment_id, created_at, updated_at)
     SELECT 'verdict', 'new', 'v', id, 0, 0 FROM experiments WHERE id % 9 = 0" || fail "alerts"
start_daemon
SUB=$(make_key submit alice)

# walk PATH LIMIT: every id of every page, one a line; pages in $TMP/pages.
walk() {
	local path=$1 limit=$2 key=$3 next= body sep='?'
	case $path in *\?*) sep='&' ;; esac
	: >"$TMP/pages"
	for _ in $(seq 1000); do
		body=$(api GET "$path${sep}limit=$limit${next:+&before=$next}" "$SUB")
		[ "$(last_status)" = 200 ] || fail "$path page after ${next:-start}: HTTP $(last_status) $body"
		jq -r ".$key[].id" <<<"$body"
		echo x >>"$TMP/pages"
		next=$(jq -r '.next // empty' <<<"$body")
		[ -z "$next" ] && return 0
		[ "$(jq ".$key | length" <<<"$body")" = "$limit" ] || fail "$path: a short page with a next cursor"
	done
	fail "$path: no last page"
}

for state in "" done queued; do
	walk "/api/v1/experiments${state:+?state=$state}" 7 experiments >"$TMP/got"
	sql "SELECT id FROM experiments ${state:+WHERE state = '$state'} ORDER BY id DESC" >"$TMP/want"
	cmp -s "$TMP/got" "$TMP/want" || fail "experiments ${state:-all}: pages hold $(wc -l <"$TMP/got") ids, the database $(wc -l <"$TMP/want")"
	check "$(wc -l <"$TMP/pages")" -eq $((($(wc -l <"$TMP/want") + 6) / 7)) "pages of experiments ${state:-all}"
done
for f in "" "?state=new" "?state=fixed" "?kind=verdict" "?kind=change_point&state=fixed"; do
	walk "/api/v1/alerts$f" 3 alerts >"$TMP/got"
	w="1"
	case $f in *state=new*) w="state = 'new'" ;; *kind=verdict*) w="kind = 'verdict'" ;;
	*kind=change_point*) w="kind = 'change_point' AND state = 'fixed'" ;; *state=fixed*) w="state = 'fixed'" ;; esac
	sql "SELECT id FROM alerts WHERE $w ORDER BY id DESC" >"$TMP/want"
	check "$(wc -l <"$TMP/want")" -gt 3 "alerts $f in the database"
	cmp -s "$TMP/got" "$TMP/want" || fail "alerts $f: pages hold $(wc -l <"$TMP/got") ids, the database $(wc -l <"$TMP/want")"
done

# A new experiment between two pages: the second page is unchanged.
p1=$(api GET "/api/v1/experiments?limit=10" "$SUB")
next=$(jq .next <<<"$p1")
before=$(api GET "/api/v1/experiments?limit=10&before=$next" "$SUB" | jq -c '[.experiments[].id]')
api POST /api/v1/experiments "$SUB" '{"runs":2,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "new experiment"
after=$(api GET "/api/v1/experiments?limit=10&before=$next" "$SUB" | jq -c '[.experiments[].id]')
check "$after" = "$before" "second page after an insert"

for q in "limit=0" "limit=1001" "limit=x" "before=0" "before=-3" "before=abc"; do
	api GET "/api/v1/experiments?$q" "$SUB" >/dev/null
	expect_status 400 "experiments ?$q"
	api GET "/api/v1/alerts?$q" "$SUB" >/dev/null
	expect_status 400 "alerts ?$q"
done
echo ok
