#!/usr/bin/env bash
# Description: GET /api/v1/metric-defs serves the metric table, and every
# metric of it goes through a result upload end to end without a line of
# this test naming it: the value at the table's JSON path is stored in
# run_metrics and shown at the same path in GET /api/v1/experiments/{id};
# a value of the wrong type is refused with 400. Runs that report ns/IO
# are compared on a verdict-capable metric of the table, in the table's
# direction (more ns/IO is a regression).
. "$(dirname "$0")/lib.sh"
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

defs=$(api GET /api/v1/metric-defs "$SUB")
expect_status 200 "metric-defs"
n=$(jq '.metrics | length' <<<"$defs")
check "$n" -ge 2 "metrics served"
jq -e '.metrics | all(.name != "" and (.path | test("^[a-z_][a-z0-9_]*\\.[a-z_][a-z0-9_]*$"))
	and (.direction | IN("higher_is_better", "lower_is_better", "neutral"))
	and (.type | IN("integer", "number")) and (.verdict | type == "boolean")
	and .unit != "" and .label != "" and .format != "")' <<<"$defs" >/dev/null ||
	fail "malformed table: $defs"
check "$(jq '[.metrics[].name] | unique | length' <<<"$defs")" -eq "$n" "names unique"
check "$(jq '[.metrics[].path] | unique | length' <<<"$defs")" -eq "$n" "paths unique"
jq -e '[.metrics[] | select(.verdict)] | length >= 1' <<<"$defs" >/dev/null ||
	fail "no verdict-capable metric"
api GET /api/v1/metric-defs "" >/dev/null
expect_status 401 "metric-defs needs a key"

# with_metrics BODY: every table metric at its path, a distinct value
# (integer metrics integers) derived from its position in the table.
with_metrics() {
	jq --argjson defs "$defs" --argjson base "${2:-1000}" '
	  reduce ($defs.metrics | to_entries[]) as $e (.;
	    setpath(["bench"] + ($e.value.path | split("."));
	      if $e.value.type == "integer" then $base + $e.key
	      else $base + $e.key + 0.25 end))' <<<"$1"
}

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"A"}]}' >/dev/null
expect_status 201 "create"
job=$(claim "$RUN" host1 1)
id=$(jq -r .job_id <<<"$job")
lease=$(jq -r .lease <<<"$job")
good=$(with_metrics "$(sample_result "$lease")")
for k in $(seq 0 $((n - 1))); do
	path=$(jq -r ".metrics[$k].path" <<<"$defs")
	b=$(jq --arg p "$path" 'setpath(["bench"] + ($p | split(".")); "x")' <<<"$good")
	r=$(api POST "/api/v1/jobs/$id/result" "$RUN" "$b")
	expect_status 400 "$path as a string"
	jq -e --arg k "${path#*.}" '.error | contains($k)' <<<"$r" >/dev/null ||
		fail "$path: error does not name the field: $r"
done
check "$(sql 'SELECT count(*) FROM runs')" -eq 0 "refused bodies stored nothing"
api POST "/api/v1/jobs/$id/result" "$RUN" "$good" >/dev/null
expect_status 201 "upload with every metric"
check "$(sql 'SELECT count(*) FROM run_metrics')" -eq "$n" "one row per metric"
exp=$(api GET /api/v1/experiments/1 "$SUB")
for k in $(seq 0 $((n - 1))); do
	m=$(jq -c ".metrics[$k]" <<<"$defs")
	want=$(jq --argjson m "$m" --argjson k "$k" \
		'if $m.type == "integer" then 1000 + $k else 1000 + $k + 0.25 end' <<<null)
	got=$(jq --argjson m "$m" '.runs[0] | getpath($m.path | split("."))' <<<"$exp")
	check "$got" = "$want" "$(jq -r .name <<<"$m") at $(jq -r .path <<<"$m")"
	check "$(sql "SELECT value FROM run_metrics WHERE metric = '$(jq -r .name <<<"$m")'")" = "$want" \
		"$(jq -r .name <<<"$m") stored"
done

# Five runs a side reporting ns/IO; B costs 2 % more per IO.
body=$(api POST /api/v1/experiments "$SUB" '{"runs":5,"max_runs":5,
  "bench":{"runtime":5,"warmup":1},"variants":[{"name":"A"},{"name":"B"}]}')
expect_status 201 "create comparison"
eid=$(jq -r .id <<<"$body")
i=0
while job=$(claim "$RUN" host1 1) && [ "$(last_status)" = 200 ]; do
	i=$((i + 1))
	ns=$(jq -n --argjson i "$i" '4000 + ($i % 5) * 0.7')
	[ "$(jq -r .variant.name <<<"$job")" = B ] && ns=$(jq -n "$ns * 1.02")
	b=$(sample_result "$(jq -r .lease <<<"$job")" |
		jq --argjson ns "$ns" '.bench.summary.ns_per_io = $ns |
			.bench.summary.ios_measured = 100000')
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "$b" >/dev/null
	expect_status 201 "result $i"
done
check "$i" -eq 10 "10 jobs run"
exp=$(api GET "/api/v1/experiments/$eid" "$SUB")
c=$(jq -c '.comparison[] | select(.variant == "B")' <<<"$exp")
m=$(jq -c --arg n "$(jq -r .metric <<<"$c")" '.metrics[] | select(.name == $n)' <<<"$defs")
check "$(jq -r .verdict <<<"$m")" = true "compared on a verdict-capable metric ($c)"
check "$(jq -r .direction <<<"$m")" = lower_is_better "ns/IO: lower is better"
check "$(jq -r .verdict <<<"$c")" = regression "2 % more ns/IO is a regression"
echo "ok"
