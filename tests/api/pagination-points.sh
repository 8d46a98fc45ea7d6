#!/usr/bin/env bash
# Description: a track's points, a series' points (rows and pairs, a
# track's series and a series by time with equal times) and the
# bisection list and a bisection's steps page by keyset cursor:
# following `next` (before=NEXT) visits every row exactly once, each
# page in the order shown (commit order, time, order run) and older
# than the page before it, as the database orders them; the last page
# has next null; a point added between two pages does not shift the
# next page; a bad limit or cursor (also one of another series) is 400.
. "$(dirname "$0")/lib.sh"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
"$PERFLABD" migrate --db "$DB" >/dev/null || fail "migrate"
sqlite3 "$DB" -cmd "CREATE TEMP TABLE scale AS SELECT 500 AS experiments, 2 AS samples, 3 AS symbols, 50 AS symtab" \
	<"$TOP/bench/scale-fill.sql" || fail "fill"
# Track 1001 gets commits not measured yet (queued, no point) between
# measured ones; a series by time gets points of equal t; a bisection
# gets 23 steps, and there are 17 bisections.
sql "INSERT INTO track_points (track_id, commit_sha, subject, experiment_id, created_at)
	SELECT 1001, printf('%040x', 900000 + id), 'not measured', id, 0 FROM experiments
	WHERE id % 50 = 5 OR state = 'queued';
     INSERT INTO series (id, name, metric, created_at) VALUES (77, 'by-time', 'iops', 0);
     INSERT INTO series_points (series_id, t, value, label, created_at)
	SELECT 77, 1000 + id / 3, id, 'p' || id, 0 FROM experiments WHERE id <= 40;
     INSERT INTO bisections (id, base_id, good, bad, bench, runs, created_at)
	SELECT id, 1, 'g', 'b', '{}', 3, 0 FROM experiments WHERE id <= 17;
     UPDATE bisections SET state = 'done';
     INSERT INTO bisection_steps (bisection_id, idx, commit_sha, experiment_id, created_at)
	SELECT 5, id, printf('%040x', id), id, 0 FROM experiments WHERE id <= 23" || fail "rows"
start_daemon
SUB=$(make_key submit alice)

# walk PATH LIMIT KEY: one line of ids per page, newest page first.
walk() {
	local path=$1 limit=$2 key=$3 next= body sep='?'
	case $path in *\?*) sep='&' ;; esac
	for _ in $(seq 1000); do
		body=$(api GET "$path${sep}limit=$limit${next:+&before=$next}" "$SUB")
		[ "$(last_status)" = 200 ] || fail "$path page after ${next:-start}: HTTP $(last_status) $body"
		jq -r "[.$key[].id | tostring] | join(\" \")" <<<"$body"
		next=$(jq -r '.next // empty' <<<"$body")
		[ -z "$next" ] && return 0
		[ "$(jq ".$key | length" <<<"$body")" = "$limit" ] || fail "$path: a short page with a next cursor"
	done
	fail "$path: no last page"
}
# oldest first: the pages in reverse, each as shown
flat() { tac | tr ' ' '\n' | sed '/^$/d'; }

# A track: pages are newest first by commit order; a page shows its
# measured commits in order, then the unmeasured ones.
walk /api/v1/tracks/1001 3 points >"$TMP/pages"
flat <"$TMP/pages" | sort -n >"$TMP/got"
sql "SELECT id FROM track_points WHERE track_id = 1001 ORDER BY id" >"$TMP/want"
check "$(wc -l <"$TMP/want")" -gt 9 "points of track 1001"
cmp -s "$TMP/got" "$TMP/want" || fail "track 1001: pages hold $(wc -l <"$TMP/got") points, the database $(wc -l <"$TMP/want")"
check "$(wc -l <"$TMP/pages")" -eq $((($(wc -l <"$TMP/want") + 2) / 3)) "pages of track 1001"
prev=
while read -r line; do
	set -- $line
	lo=$(tr ' ' '\n' <<<"$line" | sort -n | head -1); hi=$(tr ' ' '\n' <<<"$line" | sort -n | tail -1)
	[ -z "$prev" ] || [ "$hi" -lt "$prev" ] || fail "track page $line not older than the one before ($prev)"
	prev=$lo
done <"$TMP/pages"
first=$(api GET "/api/v1/tracks/1001?limit=3" "$SUB")
jq -e '[.points[] | .point_id == null] | . == (. | sort)' <<<"$first" >/dev/null ||
	fail "measured points first: $(jq -c '[.points[] | [.id, .point_id]]' <<<"$first")"
# A change point shows its commits on any page, its index on its own.
cp_pt=$(sql "SELECT point_id FROM track_points WHERE track_id = 1001 AND point_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET 2")
sql "INSERT INTO change_points (series_id, point_id, t, delta_pct, detected_at, state)
     SELECT 1001, $cp_pt, t, -5, 0, 'confirmed' FROM series_points WHERE id = $cp_pt" || fail "cp"
bad=$(sql "SELECT commit_sha FROM track_points WHERE point_id = $cp_pt")
good=$(sql "SELECT commit_sha FROM track_points WHERE track_id = 1001 AND point_id IS NOT NULL ORDER BY id LIMIT 1 OFFSET 1")
for q in "limit=3" "limit=10000"; do
	cp=$(api GET "/api/v1/tracks/1001?$q" "$SUB" | jq -c '.change_points[0]')
	check "$(jq -r .bad <<<"$cp") $(jq -r .good <<<"$cp")" = "$bad $good" "change point commits ($q)"
done
check "$(api GET "/api/v1/tracks/1001?limit=3" "$SUB" | jq -r '.change_points[0].index')" = null "index off the page"
check "$(api GET "/api/v1/tracks/1001?limit=10000" "$SUB" | jq -r '.change_points[0].index')" = 2 "index on the page"

# A track's series in commit order; a series by time in (t, id).
for s in 1001 77; do
	walk "/api/v1/series?id=$s" 4 points | flat >"$TMP/got"
	if [ $s = 77 ]; then
		sql "SELECT id FROM series_points WHERE series_id = 77 ORDER BY t, id" >"$TMP/want"
	else
		sql "SELECT sp.id FROM track_points tp JOIN series_points sp ON sp.id = tp.point_id
		     WHERE tp.track_id = 1001 ORDER BY tp.id" >"$TMP/want"
	fi
	check "$(wc -l <"$TMP/want")" -gt 4 "points of series $s"
	cmp -s "$TMP/got" "$TMP/want" || fail "series $s: pages $(tr '\n' ' ' <"$TMP/got"), the database $(tr '\n' ' ' <"$TMP/want")"
	# pairs page the same points
	n=$(api GET "/api/v1/series?id=$s&limit=4" "$SUB" | jq -r .next)
	r=$(api GET "/api/v1/series?id=$s&limit=4&before=$n" "$SUB" | jq -c '[.points[] | [.t, .value]]')
	p=$(api GET "/api/v1/series?id=$s&limit=4&before=$n&format=pairs" "$SUB" | jq -c '.points')
	check "$p" = "$r" "series $s pairs page"
done
# A point added between two pages does not shift the next page.
n=$(api GET "/api/v1/series?id=77&limit=5" "$SUB" | jq -r .next)
before=$(api GET "/api/v1/series?id=77&limit=5&before=$n" "$SUB" | jq -c '[.points[].id]')
api POST "/api/v1/series/import?name=by-time&metric=iops" "$SUB" "9999,1,new" >/dev/null
expect_status 201 "import a newer point"
after=$(api GET "/api/v1/series?id=77&limit=5&before=$n" "$SUB" | jq -c '[.points[].id]')
check "$after" = "$before" "second series page after an insert"
other=$(sql "SELECT id FROM series_points WHERE series_id = 1002 LIMIT 1")
api GET "/api/v1/series?id=77&before=$other" "$SUB" >/dev/null
expect_status 400 "a cursor of another series"

# Bisections: the list newest first, a bisection's steps in the order run.
walk /api/v1/bisections 4 bisections | tr ' ' '\n' >"$TMP/got"
sql "SELECT id FROM bisections ORDER BY id DESC" >"$TMP/want"
cmp -s "$TMP/got" "$TMP/want" || fail "bisections: pages $(tr '\n' ' ' <"$TMP/got")"
walk /api/v1/bisections/5 5 steps | flat >"$TMP/got"
sql "SELECT id FROM bisection_steps WHERE bisection_id = 5 ORDER BY id" >"$TMP/want"
check "$(wc -l <"$TMP/want")" -eq 23 "steps of bisection 5"
cmp -s "$TMP/got" "$TMP/want" || fail "steps: pages $(tr '\n' ' ' <"$TMP/got")"

for q in "limit=0" "limit=10001" "limit=x" "before=0" "before=-3" "before=abc"; do
	for p in /api/v1/tracks/1001 "/api/v1/series?id=77" /api/v1/bisections /api/v1/bisections/5; do
		case $p in *\?*) u="$p&$q" ;; *) u="$p?$q" ;; esac
		api GET "$u" "$SUB" >/dev/null
		expect_status 400 "$u"
	done
done
echo ok
