#!/usr/bin/env bash
# Description: perflab perf-diff prints the exact table (instructions per
# IO, perf diff layout: Base/IO New/IO Delta/IO Share Spread) for runs
# with exact profiles, the changed function on top with its delta, the
# runs-disagree mark; --kind samples gives the sampled table of the same
# runs, and a bad --kind is an error (exit 2) with the daemon's list of
# kinds (the CLI keeps no list of its own).
. "$(dirname "$0")/lib.sh"
cli_need_daemon
cli_start_daemon
SUB=$(cli_key submit cli-pd)
RUN=$(cli_key runner cli-pd-runner)
FIX=$TOP/tests/fixtures/perfdiff/exact.json
pl() { "$PERFLAB" --server "$URL" --key "$SUB" "$@"; }

register_host "$RUN" host1
api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"variants":[{"name":"base"},{"name":"tag"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
id=$(jq -r .id "$TMP/exp.json")
while :; do
	job=$(claim "$RUN" host1 0)
	[ "$(last_status)" = 204 ] && break
	expect_status 200 "claim"
	sample_result "$(jq -r .lease <<<"$job")" |
		jq --slurpfile f "$FIX" --arg v "$(jq -r .variant.name <<<"$job")" \
		   --argjson i "$(jq -r .run_index <<<"$job")" '.bench.exact_profile = $f[0][$v][$i]' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload"
done

expect_rc 0 pl perf-diff "$id"
grep -qxF '#  Base/IO      New/IO    Delta/IO    Share     Spread  Shared Object      Symbol' "$TMP/out" ||
	fail "header: $(cat "$TMP/out")"
first=$(grep -v '^#' "$TMP/out" | grep -v '^$' | head -n 1)
[ "$(awk '{print $3, $NF}' <<<"$first")" = "+7.200 blk_mq_put_tags" ] || fail "top row: $first"
grep -E '0\.449! +\[kernel\.kallsyms\] +\[k\] hrtimer_interrupt$' "$TMP/out" >/dev/null ||
	fail "disagreeing runs not marked: $(cat "$TMP/out")"
grep -qF '# Total/IO [1] tag: +10.200 (+0.473%)' "$TMP/out" || fail "totals: $(cat "$TMP/out")"

expect_rc 0 pl perf-diff "$id" --variant tag --kind samples
grep -q "# Event 'cpu-clock'" "$TMP/out" || fail "--kind samples: $(cat "$TMP/out")"
grep -q "Baseline" "$TMP/out" || fail "--kind samples: no sampled header"
expect_rc 2 pl perf-diff "$id" --kind colour
grep -q 'kind: expected instructions, cycles or samples' "$TMP/err" || fail "bad --kind: $(cat "$TMP/err")"
echo "ok"
