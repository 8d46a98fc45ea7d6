#!/usr/bin/env bash
# Description: every write endpoint gets garbage bodies, wrong types, huge
# fields, invalid UTF-8, NUL bytes and SQL metacharacters (field by field,
# nested fields too), and read endpoints hostile query strings: each
# answer is a 4xx with a JSON reason, perflabd stays up, and the database
# is unchanged (full dump compared before and after).
. "$(dirname "$0")/../api/lib.sh"
start_daemon --lease-seconds 600
SUB=$(make_key submit alice)
ADM=$(make_key admin root)
R1=$(make_key runner r1)
register_host "$R1" h1 local local
api POST /api/v1/experiments "$SUB" '{"title":"t","runs":1,"variants":[{"name":"A"},{"name":"B"}]}' >/dev/null
expect_status 201 "experiment"
job=$(claim "$R1" h1 0)
expect_status 200 "claim"
JOB=$(jq -r .job_id <<<"$job")
LEASE=$(jq -r .lease <<<"$job")

digest() { # the whole database minus hosts.last_seen (claims refresh it)
	sql "UPDATE hosts SET last_seen = 0" && sql .dump | md5sum
}
n=0
bad=()
# try METHOD PATH KEY BODYFILE WHAT: expects 4xx with {"error": ...}.
try() {
	local code
	n=$((n + 1))
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $3" \
		-H 'Content-Type: application/json' --data-binary "@$4" "$BASE$2")
	case $code in
	4??) grep -q '^{"error":"[^"]' "$TMP/ans" || bad+=("$5: $code without a JSON reason") ;;
	*) bad+=("$5: HTTP $code $(head -c 200 "$TMP/ans")") ;;
	esac
}

# Generic garbage, for every write endpoint.
garbage=('{' '[]' '"s"' '123' 'null' '' '{"zz_unknown":1}' '{"a":1,"a":2}'
	$'{"name":"\xff\xfe"}' '{"name":"a\u0000b"}'
	"$(printf '[%.0s' $(seq 5000))" "{\"x\":\"$(head -c 2000000 /dev/zero | tr '\0' x)\"}")
eps=("POST /api/v1/experiments SUB" "POST /api/v1/bases ADM" "POST /api/v1/hosts/register R1"
	"POST /api/v1/jobs/claim R1" "POST /api/v1/jobs/$JOB/heartbeat R1"
	"POST /api/v1/jobs/$JOB/result R1" "POST /api/v1/jobs/$JOB/fail R1"
	"POST /api/v1/webhooks ADM" "POST /api/v1/baselines ADM" "POST /api/v1/compare SUB"
	"PATCH /api/v1/alerts/1 SUB" "POST /api/v1/experiments/1/cancel R1")
before=$(digest)
for ep in "${eps[@]}"; do
	read -r m p k <<<"$ep"
	for g in "${garbage[@]}"; do
		printf '%s' "$g" >"$TMP/case"
		try "$m" "$p" "${!k}" "$TMP/case" "$m $p garbage '${g:0:20}'"
	done
done

# Field by field: a valid body with one field replaced by a bad value.
# Kinds: name ([A-Za-z0-9._+-]{1,64}), str (short text), text (long text:
# no size test), int, num, bool, obj, arr.
sample_result "$LEASE" >"$TMP/result.json"
jq -nrc --arg lease "$LEASE" --argjson job "$JOB" --slurpfile result "$TMP/result.json" '
def huge: "A" * 70000;
def bad(kind):
  if kind == "name" then [5, true, [], {}, huge, "@@BADUTF8@@", "a b", "../../etc", "x\u0027; DROP TABLE jobs;--", "\u00e9t\u00e9", "a\u0000b"]
  elif kind == "str" then [5, true, [], {}, huge, "@@BADUTF8@@", "a\u0000b"]
  elif kind == "text" then [5, true, [], {}, "@@BADUTF8@@", "a\u0000b"]
  elif kind == "int" then ["5", 1.5, true, [], {}, -1, 1e300, "1; DROP TABLE runs"]
  elif kind == "num" then ["5", true, [], {}]
  elif kind == "bool" then ["yes", "true", [], {}]
  elif kind == "obj" then ["x", [], 5, true]
  else ["x", {}, 5, true] end;
[
 {m: "POST", p: "/api/v1/experiments", k: "SUB",
  body: {title: "t", runs: 1, variants: [{name: "A", cmdline: "", setup: ""}]},
  f: [[["title"], "str"], [["base"], "name"], [["label"], "name"], [["backend"], "name"],
      [["config"], "name"], [["runs"], "int"], [["max_runs"], "int"], [["control"], "name"],
      [["bench"], "obj"], [["variants"], "arr"], [["variants", 0], "obj"],
      [["variants", 0, "name"], "name"], [["variants", 0, "cmdline"], "str"],
      [["variants", 0, "setup"], "str"], [["variants", 0, "patches"], "arr"],
      [["variants", 0, "control"], "bool"], [["bench", "depth"], "int"],
      [["bench", "bs"], "int"], [["bench", "polled"], "bool"], [["bench", "target"], "str"],
      [["bench", "runtime"], "int"], [["bench", "threads"], "int"]]},
 {m: "POST", p: "/api/v1/bases", k: "ADM",
  body: {name: "b2", tree: "debian-linux-source-6.1", ref: "", config: "qemu"},
  f: [[["name"], "name"], [["tree"], "str"], [["ref"], "str"], [["config"], "name"]]},
 {m: "POST", p: "/api/v1/hosts/register", k: "R1",
  body: {name: "h1", backend: "local", labels: ["local"], facts: {cpus: 2}},
  f: [[["name"], "name"], [["backend"], "name"], [["labels"], "arr"], [["labels", 0], "name"],
      [["facts"], "obj"], [["facts", "cpus"], "int"], [["facts", "poll_ok"], "bool"]]},
 {m: "POST", p: "/api/v1/jobs/claim", k: "R1", body: {host: "h1", wait: 0},
  f: [[["host"], "name"], [["wait"], "int"]]},
 {m: "POST", p: "/api/v1/jobs/\($job)/heartbeat", k: "R1",
  body: {lease: $lease, phase: "run", message: "m"},
  f: [[["lease"], "str"], [["phase"], "name"], [["message"], "str"]]},
 {m: "POST", p: "/api/v1/jobs/\($job)/fail", k: "R1",
  body: {lease: $lease, reason: "boot", log: "l"},
  f: [[["lease"], "str"], [["reason"], "name"], [["log"], "text"]]},
 {m: "POST", p: "/api/v1/jobs/\($job)/result", k: "R1", body: $result[0],
  f: [[["lease"], "str"], [["bench"], "obj"], [["bench", "version"], "int"],
      [["bench", "samples"], "arr"], [["bench", "samples", 0], "obj"],
      [["bench", "samples", 0, "t"], "int"], [["bench", "samples", 0, "iops"], "num"],
      [["bench", "summary"], "obj"], [["bench", "summary", "mean"], "num"],
      [["bench", "profile"], "obj"], [["bench", "profile", "symbols"], "arr"],
      [["bench", "profile", "symbols", 0, "samples"], "num"],
      [["bench", "profile", "stacks", 0, "stack"], "text"],
      [["build"], "obj"], [["boot_log"], "text"], [["timings"], "obj"]]},
 {m: "POST", p: "/api/v1/webhooks", k: "ADM", body: {url: "http://127.0.0.1:9/hook", secret: "s"},
  f: [[["url"], "str"], [["secret"], "str"]]},
 {m: "POST", p: "/api/v1/baselines", k: "ADM",
  body: {name: "bl", base: "linux-6.1", label: "local", backend: "local", runs: 3, schedule_seconds: 3600},
  f: [[["name"], "name"], [["base"], "name"], [["label"], "name"], [["backend"], "name"],
      [["runs"], "int"], [["schedule_seconds"], "int"], [["bench"], "obj"]]}
] | .[] | . as $e | $e.f[] | . as [$path, $kind] | bad($kind)[] as $v |
  [$e.m, $e.p, $e.k, ($path | map(tostring) | join(".")),
   ($v | tojson | .[0:40]), ($e.body | setpath($path; $v) | tojson)] | join("\u001f")
' >"$TMP/cases" || fail "cannot generate the cases"
check "$(wc -l <"$TMP/cases")" -gt 300 "cases generated"
while IFS=$'\x1f' read -r m p k path v body; do
	printf '%s' "${body/@@BADUTF8@@/$'\xff\xfe'}" >"$TMP/case"
	try "$m" "$p" "${!k}" "$TMP/case" "$m $p .$path = $v"
done <"$TMP/cases"
after=$(digest)
[ ${#bad[@]} -eq 0 ] || fail "$(printf '%s\n' "${bad[@]}")"
check "$after" = "$before" "database unchanged by $n refused requests"

# Hostile query strings and path parameters on read endpoints.
before=$(digest)
for q in "/api/v1/experiments?state=%27%20OR%201=1--" "/api/v1/experiments?limit=abc" \
	"/api/v1/experiments?limit=-1" "/api/v1/experiments?limit=99999999999999999999999" \
	"/api/v1/experiments?before=1%3BDROP%20TABLE%20runs" "/api/v1/experiments/1%27%20OR%201=1" \
	"/api/v1/experiments/-1" "/api/v1/experiments/0x10" "/api/v1/experiments/99999999999999999999999" \
	"/api/v1/patches/1%00" "/api/v1/runs/1/logs/..%2f..%2fetc%2fpasswd" "/api/v1/runs/1/logs/passwd" \
	"/api/v1/experiments/1/perf-diff?format=%27" "/api/v1/series?name=%27%3B--&metric=x" \
	"/api/v1/alerts/abc" "/api/v1/experiments/1/flamegraph.svg?variant=%00"; do
	code=$(curl -s -o "$TMP/ans" -w '%{http_code}' -H "Authorization: Bearer $SUB" "$BASE$q")
	n=$((n + 1))
	case $code in 4??) ;; *) bad+=("GET $q: HTTP $code $(head -c 200 "$TMP/ans")") ;; esac
done
[ ${#bad[@]} -eq 0 ] || fail "$(printf '%s\n' "${bad[@]}")"
check "$(digest)" = "$before" "database unchanged by hostile reads"

# SQL metacharacters in free text are stored verbatim, nothing else moves.
t="x'); DROP TABLE runs; -- \" OR 1=1 /*"
b=$(api POST /api/v1/experiments "$SUB" "$(jq -nc --arg t "$t" '{title: $t, runs: 1, variants: [{name: "A"}]}')")
expect_status 201 "title with SQL metacharacters"
check "$(api GET "/api/v1/experiments/$(jq -r .id <<<"$b")" "$SUB" | jq -r .title)" = "$t" "title stored verbatim"
check "$(sql "SELECT count(*) FROM sqlite_master WHERE name = 'runs'")" -eq 1 "runs table intact"
curl -sf "$BASE/healthz" >/dev/null || fail "perflabd died"
echo "$n hostile requests refused with 4xx"
echo "ok"
