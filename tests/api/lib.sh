# Shared helpers for API tests (sourced, not executed).
#
#   . "$(dirname "$0")/lib.sh"
#   start_daemon [perflabd flags...]     # fresh DB in $TMP, free loopback port
#   ADMIN=$(make_key admin NAME)         # also submit / runner
#   body=$(api GET /api/v1/experiments "$KEY")      # status: $(last_status)
#   body=$(api POST /api/v1/patches "$KEY" @file.patch)
#   expect_status 201 "submit patch"
#   check "$(jq -r .state <<<"$body")" = queued "experiment queued"
#   fail "reason" / skip "reason"
#
# The daemon is killed and $TMP removed on exit. Tests exit 0 pass,
# 1 fail, 77 skip (reason on the last line).

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PERFLABD=${PERFLABD:-$TOP/build/perflabd}
TMP=$(mktemp -d /tmp/perflab-api.XXXXXX)
# Kernel images for the runner tests: build/kcache, or a directory the
# sandboxed build user can reach (scripts/kcache-dir.sh).
KCACHE=${PERFLAB_TEST_KCACHE:-$("$TOP/scripts/kcache-dir.sh")}
DB=$TMP/perflab.db
DAEMON_PID=
BASE=

. "$TOP/tests/lib/lib.sh"
fail_context() {
	[ -f "$TMP/daemon.log" ] && tail -n 20 "$TMP/daemon.log"
}

cleanup() {
	if [ -n "$DAEMON_PID" ]; then
		kill "$DAEMON_PID" 2>/dev/null
		wait "$DAEMON_PID" 2>/dev/null
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT

for tool in curl jq sqlite3; do
	command -v "$tool" >/dev/null || skip "$tool is not installed"
done
[ -x "$PERFLABD" ] || skip "$PERFLABD is not built (run make)"

# start_daemon [flags]: perflabd on 127.0.0.1 (kernel-chosen port), DB $DB.
start_daemon() {
	rm -f "$TMP/port"
	"$PERFLABD" --listen 127.0.0.1:0 --db "$DB" --port-file "$TMP/port" "$@" \
		>"$TMP/daemon.log" 2>&1 &
	DAEMON_PID=$!
	for _ in $(seq 100); do
		[ -s "$TMP/port" ] && break
		kill -0 "$DAEMON_PID" 2>/dev/null || fail "perflabd exited: $(cat "$TMP/daemon.log")"
		sleep 0.05
	done
	[ -s "$TMP/port" ] || fail "perflabd did not start"
	BASE=http://127.0.0.1:$(cat "$TMP/port")
}

stop_daemon() {
	[ -n "$DAEMON_PID" ] && kill "$DAEMON_PID" && wait "$DAEMON_PID" 2>/dev/null
	DAEMON_PID=
}

# make_key ROLE NAME: prints the new key.
make_key() {
	"$PERFLABD" key create --db "$DB" --role "$1" "$2" || fail "key create $1 $2"
}

# api METHOD PATH KEY [DATA]: body on stdout, HTTP status in $(last_status).
# DATA is passed to curl --data-binary (use @FILE for a file).
api() {
	local m=$1 p=$2 k=${3:-} d=${4-}
	local args=(-s -o "$TMP/body" -w '%{http_code}' -X "$m")
	[ -n "$k" ] && args+=(-H "Authorization: Bearer $k")
	[ $# -ge 4 ] && args+=(-H 'Content-Type: application/json' --data-binary "$d")
	curl "${args[@]}" "$BASE$p" >"$TMP/status" 2>/dev/null || echo 000 >"$TMP/status"
	cat "$TMP/body"
}

last_status() {
	cat "$TMP/status"
}

expect_status() {
	local got
	got=$(last_status)
	[ "$got" = "$1" ] || fail "$2: expected HTTP $1, got $got: $(cat "$TMP/body")"
}

# check A OP B WHAT: e.g. check "$n" -eq 4 "four jobs"
check() {
	[ "$1" "$2" "$3" ] || fail "$4 (got '$1', expected $2 '$3')"
}

# sql [SQL]: on $DB, waiting up to 10 s for perflabd's writer (a write
# from a test while the daemon runs would otherwise fail as "locked").
sql() {
	sqlite3 -cmd ".timeout 10000" "$DB" "$@"
}

# register_host KEY NAME [LABEL] [BACKEND]
register_host() {
	api POST /api/v1/hosts/register "$1" \
		"{\"name\":\"$2\",\"labels\":[\"${3:-qemu-icount}\"],\"backend\":\"${4:-qemu-icount}\",\"facts\":{\"cpu_model\":\"test cpu\",\"cpus\":2,\"kernel\":\"6.1.0\",\"poll_ok\":true}}" >/dev/null
	expect_status 200 "register host $2"
}

# wait_host KEY NAME: wait (30 s) until host NAME has registered. A real
# runner registers in the background, and an experiment may name only a
# backend that a registered host runs.
wait_host() {
	local i
	for i in $(seq 1 150); do
		api GET /api/v1/hosts "$1" | jq -e --arg n "$2" \
			'any(.hosts[]; .name == $n)' >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	fail "host $2 did not register"
}

# claim KEY HOST [WAIT]: the claimed job JSON on stdout (status 200/204).
claim() {
	api POST /api/v1/jobs/claim "$1" "{\"host\":\"$2\",\"wait\":${3:-0}}"
}

# sample_result LEASE [IOPS] [SECONDS]: a result body in the shape of
# docs/contracts.md section 1 (hand-made test input).
sample_result() {
	local lease=$1 iops=${2:-100000} n=${3:-5}
	jq -n --arg lease "$lease" --argjson iops "$iops" --argjson n "$n" '{
	  lease: $lease,
	  bench: {version: 1, tool: "perflab-bench",
	    params: {target: "/dev/nullb0", depth: 128, submit_batch: 32, complete_batch: 32,
	             bs: 512, polled: true, fixedbufs: true, regfiles: true, random: true,
	             threads: 1, runtime: $n, warmup: 1, seed: 1, ios: 0},
	    ring_flags: ["SINGLE_ISSUER", "DEFER_TASKRUN"], kernel: "6.1.0-perflab",
	    device: {name: "nullb0", model: "", firmware: "", logical_block_size: 512,
	             io_poll: 1, scheduler: "none", size_bytes: 1073741824},
	    samples: [range(1; $n + 1) | {t: ., iops: ($iops + . * 10), ios_per_submit: 32.0,
	              ios_per_reap: 31.0, inflight: 75}],
	    summary: {warmup: 1, seconds: ($n - 1), mean: ($iops + 30), median: ($iops + 30),
	              stddev: 12.5, total_ios: ($iops * $n), ns_per_io: 0, ios_measured: 0},
	    cpu: {user_ns_per_io: 120.1, sys_ns_per_io: 3900.2},
	    profile: {event: "cpu-clock", total: 1000, lost: 0,
	      symbols: [{dso: "[kernel.kallsyms]", sym: "blk_mq_get_tag", samples: 123},
	                {dso: "[kernel.kallsyms]", sym: "io_submit_sqes", samples: 400}],
	      stacks: [{stack: "entry_SYSCALL_64;do_syscall_64;io_submit_sqes", samples: 40}]}},
	  build: {cache_key: "k1", cached: false, seconds: 1.5, log: "build log text"},
	  boot_log: "boot log text",
	  timings: {build_s: 1.5, boot_s: 2.0, run_s: $n}}'
}

# A small well-formed patch (git format-patch style) on stdout.
sample_patch() {
	local subj=${1:-block: avoid clearing the tag on the fast path}
	cat <<PATCH
From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
From: Jens Axboe <axboe@kernel.dk>
Date: Tue, 23 Mar 2021 10:00:00 -0600
Subject: [PATCH] $subj
Message-Id: <20210323.tag@kernel.dk>

A test patch.

Signed-off-by: Jens Axboe <axboe@kernel.dk>
---
 block/blk-mq-tag.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/block/blk-mq-tag.c b/block/blk-mq-tag.c
index 1111111..2222222 100644
--- a/block/blk-mq-tag.c
+++ b/block/blk-mq-tag.c
@@ -10,7 +10,7 @@ static int foo(void)
 	int a;
 	int b;
 	int c;
-	return 0;
+	return 1;
 	int d;
 	int e;
 	int f;
-- 
2.30.0

PATCH
}

# runner_log_problems LOG: the lines of a perflab-runner log that an
# operator would have to read: HTTP errors, retries, warnings, lost
# leases, and a phase logged twice within one job (one line per phase).
runner_log_problems() {
	grep -inE 'error|HTTP [0-9]|409|retry|warning|lease lost|dropp|not acknowledged' "$1"
	awk '/: job [0-9]+: experiment/ { last = "" }
	     /: phase [a-z]+:/ { if ($3 == last) print "phase twice: " $0; last = $3 }' "$1"
}

# wait_analysed EXP KEY [SECONDS]: wait as a client would until the
# experiment's analysis ran (its last result only marks it for the
# daemon's analysis worker): polls GET /api/v1/experiments/EXP until
# analysis_pending is false, then prints the experiment JSON.
wait_analysed() {
	local exp=$1 key=$2 secs=${3:-30} body i
	for ((i = 0; i < secs * 20; i++)); do
		body=$(api GET "/api/v1/experiments/$exp" "$key")
		if [ "$(jq -r .analysis_pending <<<"$body")" = false ]; then
			printf '%s\n' "$body"
			return 0
		fi
		sleep 0.05
	done
	fail "experiment $exp: analysis did not run within ${secs}s"
}
