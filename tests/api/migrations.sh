#!/usr/bin/env bash
# Description: perflabd migrates an empty database file to the newest
# schema at start, and refuses (non-zero exit, clear message) a database
# written by a newer perflabd without touching it. A version-6 database
# (run values in columns) keeps its runs' values: the API shows them at
# their bench JSON paths after the move to run_metrics.
. "$(dirname "$0")/lib.sh"
newest=$(ls "$TOP"/schema/[0-9]*_*.sql | sed 's|.*/0*||; s|_.*||' | sort -n | tail -n 1)
: >"$DB"
start_daemon
check "$(sql 'PRAGMA user_version')" -eq "$newest" "empty file migrated to the newest version"
check "$(sql 'PRAGMA journal_mode')" = wal "WAL mode"
check "$(api GET /healthz "" | jq -r .schema_version)" -eq "$newest" "healthz reports the version"
stop_daemon

# Restart on the migrated database: nothing to do, data kept.
make_key submit alice >/dev/null
start_daemon
check "$(sql 'SELECT count(*) FROM api_keys')" -eq 1 "data kept across restart"
stop_daemon

sql "PRAGMA user_version = $((newest + 5))"
if "$PERFLABD" --listen 127.0.0.1:0 --db "$DB" >"$TMP/out" 2>&1; then
	fail "perflabd started on a newer database"
fi
grep -q "newer" "$TMP/out" || fail "no clear message: $(cat "$TMP/out")"
check "$(sql 'PRAGMA user_version')" -eq $((newest + 5)) "newer database untouched"
"$PERFLABD" key create --db "$DB" --role admin x >/dev/null 2>&1 && fail "key create on a newer database"

# A version-6 database made from the schema files themselves.
rm -f "$DB" "$DB-wal" "$DB-shm"
for f in "$TOP"/schema/000[1-6]_*.sql; do
	sqlite3 "$DB" <"$f" || fail "apply $f"
done
sqlite3 "$DB" "PRAGMA user_version = 6;
INSERT INTO hosts (id, name, backend, registered_at, last_seen) VALUES (1, 'h1', 'local', 0, 0);
INSERT INTO experiments (id, title, kind, state, backend, base_id, bench, runs, max_runs, created_at)
  VALUES (1, 't', 'explicit', 'done', 'local', 1, '{}', 1, 1, 0);
INSERT INTO variants (id, experiment_id, idx, name, is_control) VALUES (1, 1, 0, 'A', 1);
INSERT INTO jobs (id, experiment_id, variant_id, run_index, seq, state, created_at)
  VALUES (1, 1, 1, 0, 0, 'done', 0);
INSERT INTO runs (id, job_id, lease_token, experiment_id, variant_id, host_id, run_index,
  attempt, warmup, seconds, mean, median, stddev, total_ios, ns_per_io, ios_measured,
  cpu_user_ns_per_io, cpu_sys_ns_per_io, created_at)
  VALUES (1, 1, 'l1', 1, 1, 1, 0, 1, 2, 8, 234500.5, 234510.0, 120.5, 2345000, 4264.39,
  1000000, 120.1, 3900.2, 0);" || fail "version-6 rows"
start_daemon
check "$(sql 'PRAGMA user_version')" -eq "$newest" "version 6 migrated"
make_key submit bob >"$TMP/key"
run=$(api GET /api/v1/experiments/1 "$(cat "$TMP/key")" | jq -c '.runs[0] | [.summary.mean,
	.summary.median, .summary.stddev, .summary.total_ios, .summary.ns_per_io,
	.summary.ios_measured, .cpu.user_ns_per_io, .cpu.sys_ns_per_io, .summary.warmup]')
check "$run" = "[234500.5,234510,120.5,2345000,4264.39,1000000,120.1,3900.2,2]" "run values survive"
stop_daemon
echo "ok"
