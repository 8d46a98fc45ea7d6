#!/usr/bin/env bash
# Description: --retention-days compacts the runs of an old experiment
# (samples and stacks gone, only its 50 top symbols by samples over all
# its runs kept in every run, run values and verdicts untouched, its
# perf diff of those symbols unchanged), and leaves alone, byte for byte,
# the old experiments that are pinned or that a track point, bisection
# step, alert or series point refers to, a recent one and an unfinished
# one; /metrics counts the work left and done; PATCH pinned is admin-only.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
start_daemon
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
mapfile -t E < <(python3 "$(dirname "$0")/retention_fill.py" "$BASE" "$ADM" "$SUB" 8) ||
	fail "filling the database"
check "${#E[@]}" -eq 8 "experiments made"
# E[0] old: compacted. E[1] pinned, E[2] track point, E[3] bisection
# step, E[4] alert, E[5] series point, E[6] recent, E[7] unfinished.
api PATCH "/api/v1/experiments/${E[1]}" "$SUB" '{"pinned":true}' >/dev/null
expect_status 403 "pin with a submit key"
api PATCH "/api/v1/experiments/${E[1]}" "$ADM" '{"pinned":"yes"}' >/dev/null
expect_status 400 "pin with a string"
api PATCH "/api/v1/experiments/999999" "$ADM" '{"pinned":true}' >/dev/null
expect_status 404 "pin of a missing experiment"
body=$(api PATCH "/api/v1/experiments/${E[1]}" "$ADM" '{"pinned":true}')
expect_status 200 "pin"
check "$(api GET "/api/v1/experiments/${E[1]}" "$SUB" | jq -r .pinned)" = true "pinned shown"
api GET "/api/v1/experiments/${E[0]}/perf-diff?variant=B" "$SUB" >"$TMP/pd-before.json"
expect_status 200 "perf diff before"
stop_daemon

old=$((400 * 86400))
sql "UPDATE experiments SET finished_at = finished_at - $old WHERE id != ${E[6]};
     UPDATE experiments SET state = 'running' WHERE id = ${E[7]};
     INSERT INTO tracks (label, base_id, ref, bench, runs, created_at) VALUES ('t', 1, 'main', '{}', 1, 0);
     INSERT INTO track_points (track_id, commit_sha, experiment_id, created_at)
       VALUES (last_insert_rowid(), 'c0', ${E[2]}, 0);
     INSERT INTO bisections (base_id, good, bad, bench, runs, created_at) VALUES (1, 'a', 'b', '{}', 1, 0);
     INSERT INTO bisection_steps (bisection_id, idx, commit_sha, experiment_id, created_at)
       VALUES (last_insert_rowid(), 0, 'c1', ${E[3]}, 0);
     INSERT INTO alerts (kind, title, experiment_id, created_at, updated_at)
       VALUES ('verdict', 'x', ${E[4]}, 0, 0);
     INSERT INTO series (name, created_at) VALUES ('s', 0);
     INSERT INTO series_points (series_id, t, value, experiment_id, created_at)
       VALUES (last_insert_rowid(), 0, 1, ${E[5]}, 0);" || fail "ageing and references"

# detail EXP: every row of the detail of EXP's runs, as text.
detail() {
	sql "SELECT 's', s.* FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.experiment_id = $1 ORDER BY 2, 3;
	     SELECT 'p', p.* FROM profile_symbols p JOIN runs r ON r.id = p.run_id WHERE r.experiment_id = $1 ORDER BY 2, 3;
	     SELECT 'k', k.* FROM profile_stacks k JOIN runs r ON r.id = k.run_id WHERE r.experiment_id = $1 ORDER BY 2, 3;
	     SELECT 'm', m.* FROM run_metrics m JOIN runs r ON r.id = m.run_id WHERE r.experiment_id = $1 ORDER BY 2, 3;
	     SELECT 'c', c.* FROM comparisons c WHERE c.experiment_id = $1 ORDER BY 2;
	     SELECT 'f', f.* FROM profiles f JOIN runs r ON r.id = f.run_id WHERE r.experiment_id = $1 ORDER BY 2"
}
for i in 1 2 3 4 5 6 7; do detail "${E[$i]}" >"$TMP/before.$i"; done
# What E[0] keeps, by the rule: its runs' values, verdicts and profile
# totals, and of the symbols the 50 with the most samples over its runs.
e0=${E[0]}
sql "SELECT 'm', m.* FROM run_metrics m JOIN runs r ON r.id = m.run_id WHERE r.experiment_id = $e0 ORDER BY 2, 3;
     SELECT 'c', c.* FROM comparisons c WHERE c.experiment_id = $e0 ORDER BY 2;
     SELECT 'f', f.* FROM profiles f JOIN runs r ON r.id = f.run_id WHERE r.experiment_id = $e0 ORDER BY 2" >"$TMP/keep.0"
sql "WITH top AS (SELECT symbol_id FROM profile_symbols p JOIN runs r ON r.id = p.run_id
       WHERE r.experiment_id = $e0 GROUP BY symbol_id ORDER BY sum(samples) DESC LIMIT 50)
     SELECT p.* FROM profile_symbols p JOIN runs r ON r.id = p.run_id
     WHERE r.experiment_id = $e0 AND p.symbol_id IN top ORDER BY 1, 2" >"$TMP/keep-symbols.0"
nruns0=$(sql "SELECT count(*) FROM runs WHERE experiment_id = $e0")
check "$(sql "SELECT count(DISTINCT symbol_id) FROM profile_symbols p JOIN runs r ON r.id = p.run_id WHERE r.experiment_id = $e0")" -gt 50 "symbols before"

start_daemon --retention-days 365
metric() {
	curl -s "$BASE/metrics" | awk -v m="$1" '$1 == m { print $2 }'
}
for _ in $(seq 300); do
	[ "$(metric perflab_retention_experiments_compacted_total)" = 1 ] &&
		[ "$(metric perflab_retention_experiments_pending)" = 0 ] && break
	sleep 0.1
done
check "$(metric perflab_retention_experiments_compacted_total)" = 1 "experiments compacted"
check "$(metric perflab_retention_experiments_pending)" = 0 "work left"
check "$(metric perflab_retention_runs_compacted_total)" = "$nruns0" "runs compacted"
check "$(metric perflab_retention_age_seconds)" = $((365 * 86400)) "age shown"
curl -s "$BASE/metrics" | grep -q '^perflab_worker_queue_depth{worker="retention"} 0$' ||
	fail "retention worker row in /metrics"

check "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.experiment_id = $e0")" = 0 "samples of the old experiment"
check "$(sql "SELECT count(*) FROM profile_stacks s JOIN runs r ON r.id = s.run_id WHERE r.experiment_id = $e0")" = 0 "stacks of the old experiment"
sql "SELECT 'm', m.* FROM run_metrics m JOIN runs r ON r.id = m.run_id WHERE r.experiment_id = $e0 ORDER BY 2, 3;
     SELECT 'c', c.* FROM comparisons c WHERE c.experiment_id = $e0 ORDER BY 2;
     SELECT 'f', f.* FROM profiles f JOIN runs r ON r.id = f.run_id WHERE r.experiment_id = $e0 ORDER BY 2" >"$TMP/after.0"
cmp -s "$TMP/keep.0" "$TMP/after.0" || fail "values, verdicts or profile totals of the compacted experiment changed"
sql "SELECT p.* FROM profile_symbols p JOIN runs r ON r.id = p.run_id WHERE r.experiment_id = $e0 ORDER BY 1, 2" >"$TMP/after-symbols.0"
cmp -s "$TMP/keep-symbols.0" "$TMP/after-symbols.0" || fail "kept symbols are not the top 50 ($(wc -l <"$TMP/after-symbols.0") rows)"
for i in 1 2 3 4 5 6 7; do
	detail "${E[$i]}" >"$TMP/after.$i"
	cmp -s "$TMP/before.$i" "$TMP/after.$i" || fail "experiment ${E[$i]} (case $i) was touched"
done
check "$(sql "SELECT count(*) FROM experiments WHERE compacted_at IS NOT NULL")" = 1 "experiments marked"

# The pages still work; the perf diff of the kept symbols is unchanged.
body=$(api GET "/api/v1/experiments/$e0" "$SUB")
expect_status 200 "compacted experiment"
check "$(jq '[.runs[] | select(.compacted_at != null)] | length' <<<"$body")" = "$nruns0" "runs shown compacted"
api GET "/api/v1/experiments/$e0/perf-diff?variant=B" "$SUB" >"$TMP/pd-after.json"
expect_status 200 "perf diff after"
jq -S '[.rows[] | {symbol, baseline, new, delta}] | sort_by(.symbol)' "$TMP/pd-after.json" >"$TMP/pd-a"
jq -S --slurpfile a "$TMP/pd-after.json" '[.rows[] | select(.symbol as $s | any($a[0].rows[]; .symbol == $s))
	| {symbol, baseline, new, delta}] | sort_by(.symbol)' "$TMP/pd-before.json" >"$TMP/pd-b"
check "$(jq length "$TMP/pd-a")" -ge 20 "symbols in the perf diff after"
cmp -s "$TMP/pd-a" "$TMP/pd-b" || fail "perf diff of the kept symbols changed: $(diff "$TMP/pd-b" "$TMP/pd-a" | head)"
"$PERFLABD" check --db "$DB" >"$TMP/check" || fail "check: $(cat "$TMP/check")"
echo ok
