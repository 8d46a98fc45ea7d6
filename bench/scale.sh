#!/usr/bin/env bash
# Scale: a year of a 20-host lab at each RUNS given (default 10000 and
# 100000), written into a migrated database through the real schema by
# bench/scale-fill.sql (experiments of 2-4 variants of 5-10 runs, 30
# per-second samples and a 100-symbol exact profile a run, tracks, every
# 50th experiment an alert) plus one track with a point every commit
# (bench/scale-track.sql, 10000 points). For each: fill time, file size
# and size per run; one run uploaded through the real path (register,
# claim, result) with its rows set beside a generated run's (the shapes
# must match: exit 1 if not); p50/p99 of the reads the pages make
# (bench/scale-measure.py, cache-defeating paths); claim, heartbeat and
# upload latency under the 200-host storm (bench/api-storm.py), also on
# an empty database; perflabd's RSS. Figures, not assertions.
#
# Usage: bench/scale.sh [RUNS...]     e.g. bench/scale.sh 10000 100000 1000000
# SCALE_READS=0: the storms alone; SCALE_REQUESTS (200), SCALE_STORM_HOSTS
# (200), SCALE_TMP (/tmp: where the databases go).
# Heavy: run under flock /work/wt/heavy.lock (make bench does not take it).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
PERFLABD=${PERFLABD:-$top/build/perflabd}
N=${SCALE_REQUESTS:-200}
HOSTS=${SCALE_STORM_HOSTS:-200}
for t in sqlite3 curl jq python3; do
	command -v $t >/dev/null || { echo "scale: $t not installed, skipped"; exit 0; }
done
[ -x "$PERFLABD" ] || { echo "scale: $PERFLABD not built"; exit 1; }
[ $# -gt 0 ] || set -- 10000 100000
tmp=$(mktemp -d "${SCALE_TMP:-/tmp}/perflab-scale.XXXXXX")
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
die() {
	echo "scale: FAIL: $*"
	# the daemon's side of it outlives the scratch directory
	cp "$tmp/daemon.log" "${SCALE_TMP:-/tmp}/perflab-scale-daemon.log" 2>/dev/null &&
		echo "scale: perflabd's log: ${SCALE_TMP:-/tmp}/perflab-scale-daemon.log"
	exit 1
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

start() { # start DB
	: >"$tmp/port"
	# No queue quota: the storm queues 4000 jobs with one submit key.
	"$PERFLABD" --listen 127.0.0.1:0 --db "$1" --port-file "$tmp/port" \
		--max-queued-runs 0 >>"$tmp/daemon.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do [ -s "$tmp/port" ] && break; sleep 0.1; done
	[ -s "$tmp/port" ] || die "perflabd did not start: $(tail -3 "$tmp/daemon.log")"
	url=http://127.0.0.1:$(cat "$tmp/port")
}
stop() { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=; }
rss() { awk '/^VmRSS|^VmHWM/ { printf "%s %d MiB  ", $1, $2 / 1024 }' "/proc/$pid/status"; }
keys() { # keys DB: adm, sub
	adm=$("$PERFLABD" key create --db "$1" --role admin "scale-admin-$RANDOM")
	sub=$("$PERFLABD" key create --db "$1" --role submit "scale-sub-$RANDOM")
}

storm() { # storm DB LABEL
	echo "-- 200-host storm ($2): claim, heartbeat, upload"
	python3 "$top/bench/api-storm.py" "$url" "$adm" "$sub" "$HOSTS" "$1" >"$tmp/storm.log" 2>&1
	grep -E "claims/s|latency|storm check" "$tmp/storm.log" | sed 's/^/   /'
	grep -q "storm check: OK" "$tmp/storm.log" || die "storm: $(tail -5 "$tmp/storm.log")"
	echo "   perflabd $(rss)"
}

# One run through the real upload path, its rows beside a generated one's.
sample_upload() { # sample_upload DB
	local rkey job lease body gen up tbl
	rkey=$("$PERFLABD" key create --db "$1" --role runner scale-sample)
	curl -fsS -H "Authorization: Bearer $rkey" -d '{"name":"nvme-sample","labels":["nvme"],"backend":"kexec","facts":{"cpus":2}}' \
		"$url/api/v1/hosts/register" >/dev/null || die "register"
	job=$(curl -fsS -H "Authorization: Bearer $rkey" -d '{"host":"nvme-sample","wait":0}' "$url/api/v1/jobs/claim") ||
		die "claim of a generated queued job"
	lease=$(jq -r .lease <<<"$job")
	body=$(jq -n --arg lease "$lease" '{lease: $lease,
	  bench: {version: 1, tool: "perflab-bench",
	    params: {target: "/dev/nvme0n1", depth: 128, submit_batch: 32, complete_batch: 32,
	             bs: 512, polled: true, fixedbufs: true, regfiles: true, random: true,
	             threads: 1, runtime: 31, warmup: 1, seed: 1, ios: 0},
	    kernel: "6.1.0-perflab",
	    samples: [range(1; 32) | {t: ., iops: (3500000 + . * 10), ios_per_submit: 32.0,
	              ios_per_reap: 31.0, inflight: 75}],
	    summary: {warmup: 1, seconds: 30, mean: 3500160, median: 3500160, stddev: 90,
	              total_ios: 108000000},
	    profile: {event: "cpu-clock", total: 150000, lost: 0,
	      symbols: [range(0; 100) | {dso: "[kernel.kallsyms]",
	                sym: ("scale_sym_" + ("0000" + (. * 37 % 2000 + 1 | tostring))[-5:]),
	                samples: (20000 / (. + 1) | floor)}]}}}')
	curl -fsS -H "Authorization: Bearer $rkey" -d "$body" \
		"$url/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" >/dev/null || die "upload"
	up=$(sqlite3 "$1" "SELECT max(id) FROM runs")
	gen=$(sqlite3 "$1" "SELECT min(id) FROM runs WHERE id >= 64")
	echo "-- one upload through the real path (run $up) beside generated run $gen: rows per run"
	for tbl in $(sqlite3 "$1" "SELECT m.name FROM sqlite_schema m, pragma_table_info(m.name) c
			WHERE m.type = 'table' AND c.name = 'run_id' ORDER BY 1"); do
		g=$(sqlite3 "$1" "SELECT count(*) FROM $tbl WHERE run_id = $gen")
		u=$(sqlite3 "$1" "SELECT count(*) FROM $tbl WHERE run_id = $up")
		printf '   %-22s generated %5d  uploaded %5d\n' "$tbl" "$g" "$u"
		[ $((g > 0)) = $((u > 0)) ] || shape_bad="$shape_bad $tbl"
	done
	g=$(sqlite3 "$1" "SELECT group_concat(metric) FROM (SELECT metric FROM run_metrics WHERE run_id = $gen ORDER BY 1)")
	u=$(sqlite3 "$1" "SELECT group_concat(metric) FROM (SELECT metric FROM run_metrics WHERE run_id = $up ORDER BY 1)")
	echo "   run_metrics names: generated $g; uploaded $u"
	for m in ${g//,/ }; do case ",$u," in *",$m,"*) ;; *) shape_bad="$shape_bad run_metrics.$m" ;; esac; done
}

shape_bad=
empty=$tmp/empty.db
"$PERFLABD" migrate --db "$empty" >/dev/null || die "migrate"
keys "$empty"
start "$empty"
echo "== empty database"
storm "$empty" "empty database"
stop

for runs in "$@"; do
	db=$tmp/scale-$runs.db
	rm -f "$db"*
	exps=$((runs * 10 / 225))
	"$PERFLABD" migrate --db "$db" >/dev/null || die "migrate"
	t0=$(now)
	sqlite3 "$db" -cmd "CREATE TEMP TABLE scale AS SELECT $exps AS experiments, 30 AS samples, 100 AS symbols, 2000 AS symtab" \
		<"$top/bench/scale-fill.sql" || die "fill"
	sqlite3 "$db" -cmd "CREATE TEMP TABLE long_track AS SELECT 10000 AS points" \
		<"$top/bench/scale-track.sql" || die "long track"
	sqlite3 "$db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
	t1=$(now)
	nruns=$(sqlite3 "$db" "SELECT count(*) FROM runs")
	bytes=$(stat -c %s "$db")
	echo "== $nruns runs ($exps experiments): filled in $(secs "$t0" "$t1") s," \
		"$((bytes / 1048576)) MiB, $((bytes / nruns)) bytes a run"
	sqlite3 "$db" "SELECT '   ' || name || ': ' || count(*) || ' rows' FROM (SELECT 'samples' AS name FROM samples
		UNION ALL SELECT 'profile_symbols' FROM profile_symbols UNION ALL SELECT 'series_points' FROM series_points) GROUP BY name"
	keys "$db"
	start "$db"
	echo "   perflabd started in $(secs "$t1" "$(now)") s (migrations checked); $(rss)"
	sample_upload "$db"
	mid=$((exps / 2)) deep=$((exps / 10))
	[ "${SCALE_READS:-1}" = 1 ] || { storm "$db" "$nruns runs"; stop; rm -f "$db"*; continue; }
	echo "-- reads ($N requests each, p50/p99)"
	python3 "$top/bench/scale-measure.py" "$url" "$sub" "$N" \
		"experiments-first-page=/api/v1/experiments?before={i:$((exps + 10)):$((exps + 10 + N))}" \
		"experiments-deep-page=/api/v1/experiments?before={i:$deep:$((deep + N))}" \
		"one-experiment=/api/v1/experiments/{i:$mid:$((mid + N))}" \
		"perf-diff=/api/v1/experiments/{i:$mid:$((mid + N))}/perf-diff" \
		"track-10k-points=/api/v1/tracks/2000?limit=10000" \
		"series-trends-10k=/api/v1/series?id=2000&format=pairs" \
		"series-trends-fill=/api/v1/series?id=1001&format=pairs" \
		"alerts=/api/v1/alerts?limit=200" \
		"alerts-new-deep=/api/v1/alerts?state=new&limit=200&before={i:$((exps / 200 + 1)):$((exps / 200 + 1 + N))}" \
		"metrics=/metrics" 2>&1 | sed 's/^/   /' || die "reads"
	echo "   perflabd $(rss)"
	storm "$db" "$nruns runs"
	stop
	rm -f "$db"*
done
[ -z "$shape_bad" ] || die "the generated rows differ from an upload's in:$shape_bad"
echo "scale: shapes of generated and uploaded runs agree"
