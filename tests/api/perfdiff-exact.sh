#!/usr/bin/env bash
# Description: exact profiles (bench.exact_profile) through the
# runner protocol: stored per run, and GET .../perf-diff answers with
# "kind": "instructions" (instr/IO per symbol, delta, share, spread, the
# runs-disagree flag, totals) checked against values computed here with
# python3 from the fixture; ?kind=samples still gives the sampled diff;
# the text layout; hostile exact_profile bodies are refused with 400 and
# a reason, storing nothing.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
FIX=$TOP/tests/fixtures/perfdiff/exact.json
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"variants":[{"name":"base"},{"name":"tag"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
EXP=$(jq -r .id "$TMP/exp.json")

# ---- hostile bodies first: refused before the lease is looked at ------------
job=$(claim "$RUN" host1 0)
expect_status 200 "claim"
JOB=$(jq -r .job_id <<<"$job")
LEASE=$(jq -r .lease <<<"$job")
good=$(sample_result "$LEASE" | jq --slurpfile f "$FIX" '.bench.exact_profile = $f[0].base[0]')
refuse() { # refuse JQ-EDIT WHAT
	local b
	b=$(api POST "/api/v1/jobs/$JOB/result" "$RUN" "$(jq "$1" <<<"$good")")
	expect_status 400 "$2"
	jq -e '.error | test("exact_profile")' <<<"$b" >/dev/null || fail "$2: reason does not name the field: $b"
}
E=.bench.exact_profile
refuse "$E = []" "not an object"
refuse "$E.kind = \"samples\"" "wrong kind"
refuse "del($E.kind)" "no kind"
refuse "$E.source = 7" "source not a string"
refuse "$E.source = \"\"" "empty source"
refuse "$E.source = \"$(printf 'x%.0s' $(seq 65))\"" "source too long"
refuse "$E.ios = 0" "ios 0"
refuse "$E.ios = -5" "ios negative"
refuse "$E.ios = 1.5" "ios not an integer"
refuse "$E.ios = \"1000\"" "ios a string"
refuse "del($E.ios)" "no ios"
refuse "$E.total = 10000000000000000" "total above 2^53"
refuse "$E.kernel = $E.total" "kernel + user above the total"
refuse "$E.unattributed = $E.total" "symbols + unattributed above the total"
refuse "$E.symbols[0].insns = $E.total" "symbols above the total"
refuse "$E.symbols[0].insns = -1" "negative count"
# a real number where an integer belongs (jq would print 1e3 as 1000)
b=$(api POST "/api/v1/jobs/$JOB/result" "$RUN" "$(jq -c . <<<"$good" | sed 's/"insns":123456789}/"insns":123456789.0}/')")
expect_status 400 "count as a real"
refuse "$E.symbols[0].sym = \"\"" "empty symbol"
api POST "/api/v1/jobs/$JOB/result" "$RUN" "$(jq "$E.symbols[0].sym = \"a\\u0000b\"" <<<"$good")" >/dev/null
expect_status 400 "NUL in a symbol (refused by the JSON parser)"
refuse "$E.symbols[0].dso = \"$(printf 'd%.0s' $(seq 1025))\"" "dso too long"
refuse "$E.symbols[0].extra = 1" "unknown symbol field"
refuse "$E.symbols[1] = 5" "symbol not an object"
refuse "$E.symbols = {}" "symbols not an array"
refuse "del($E.symbols)" "no symbols"
refuse "$E.colour = 1" "unknown field"
python3 - "$FIX" >"$TMP/many.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["base"][0]
p["symbols"] = [{"dso": "d", "sym": "s%d" % i, "insns": 0} for i in range(200001)]
print(json.dumps(p))
PY
sample_result "$LEASE" | jq --slurpfile p "$TMP/many.json" '.bench.exact_profile = $p[0]' >"$TMP/many-body.json"
api POST "/api/v1/jobs/$JOB/result" "$RUN" "@$TMP/many-body.json" >"$TMP/b"
st=$(last_status)
[ "$st" = 400 ] || [ "$st" = 413 ] || fail "200001 symbols: got $st"
check "$(sql 'SELECT count(*) FROM runs') $(sql 'SELECT count(*) FROM exact_profiles') $(sql 'SELECT count(*) FROM exact_profile_symbols')" = "0 0 0" "refused bodies stored nothing"

# ---- upload the fixture's profiles ------------------------------------------
n=0
upload() { # upload JOB-JSON
	local v i
	v=$(jq -r .variant.name <<<"$1")
	i=$(jq -r .run_index <<<"$1")
	sample_result "$(jq -r .lease <<<"$1")" |
		jq --slurpfile f "$FIX" --arg v "$v" --argjson i "$i" '.bench.exact_profile = $f[0][$v][$i]' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$1")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload $v run $i"
	n=$((n + 1))
}
upload "$job"
while :; do
	job=$(claim "$RUN" host1 0)
	[ "$(last_status)" = 204 ] && break
	expect_status 200 "claim"
	upload "$job"
	[ $n -le 8 ] || fail "more jobs than planned"
done
check "$n" -eq 4 "four runs uploaded"
check "$(sql 'SELECT count(*) FROM exact_profiles')" -eq 4 "four exact profiles"
check "$(sql "SELECT x.insns FROM exact_profile_symbols x JOIN symbols s ON s.id = x.symbol_id JOIN runs r ON r.id = x.run_id JOIN variants v ON v.id = r.variant_id WHERE v.name = 'tag' AND r.run_index = 0 AND s.name = 'blk_mq_submit_bio'")" -eq 123456789 "a symbol named twice is summed"

# ---- the exact diff against an independent computation ----------------------
pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?variant=tag" "$SUB")
expect_status 200 "perf-diff"
echo "$pd" >"$TMP/pd.json"
python3 - "$FIX" "$TMP/pd.json" <<'PY' || fail "exact perf diff does not match the reference"
import json, sys
fix = json.load(open(sys.argv[1])); got = json.load(open(sys.argv[2]))
TOL_ABS, TOL_REL = 0.01, 1e-4
def per_run(runs, key):
    out = []
    for r in runs:
        c = sum(s["insns"] for s in r["symbols"] if (s["dso"], s["sym"]) == key)
        out.append(c / r["ios"])
    return out
def stats(v):
    return sum(v) / len(v), min(v), max(v)
def side(runs):
    t = [r["total"] / r["ios"] for r in runs]
    return sum(t) / len(t)
keys = sorted({(s["dso"], s["sym"]) for v in ("base", "tag") for r in fix[v] for s in r["symbols"]})
rows = []
tb, tn = side(fix["base"]), side(fix["tag"])
for k in keys:
    bm, bmin, bmax = stats(per_run(fix["base"], k))
    nm, nmin, nmax = stats(per_run(fix["tag"], k))
    un = (bmax - bmin > TOL_ABS + TOL_REL * abs(bm)) or (nmax - nmin > TOL_ABS + TOL_REL * abs(nm))
    rows.append(dict(dso=k[0], symbol=k[1], base_per_io=bm, new_per_io=nm, delta_per_io=nm - bm,
                     new_share=nm * 100 / tn, base_share=bm * 100 / tb,
                     spread_per_io=max(bmax - bmin, nmax - nmin), unstable=un))
rows.sort(key=lambda r: (-abs(r["delta_per_io"]), -(r["base_per_io"] + r["new_per_io"]), r["dso"], r["symbol"]))
err = []
def near(a, b, what):
    if abs(a - b) > 1e-9 * max(1, abs(b)):
        err.append("%s: got %r want %r" % (what, a, b))
if got.get("kind") != "instructions": err.append("kind %r" % got.get("kind"))
if [r["symbol"] for r in got["rows"]] != [r["symbol"] for r in rows]:
    err.append("order %s want %s" % ([r["symbol"] for r in got["rows"]], [r["symbol"] for r in rows]))
for g, w in zip(got["rows"], rows):
    for f in ("base_per_io", "new_per_io", "delta_per_io", "new_share", "base_share", "spread_per_io"):
        near(g[f], w[f], w["symbol"] + " " + f)
    if g["unstable"] != w["unstable"]: err.append("%s unstable %r" % (w["symbol"], g["unstable"]))
t = got["totals"][0]
near(t["total"], tn - tb, "total delta")
near(t["total_pct"], (tn - tb) * 100 / tb, "total pct")
near(t["kernel"], sum(r["kernel"] / r["ios"] for r in fix["tag"]) / 2 - sum(r["kernel"] / r["ios"] for r in fix["base"]) / 2, "kernel delta")
near(t["user"], 0, "user delta")
near(got["sides"][0]["total_per_io"]["mean"], tb, "base total/IO")
if got["sides"][1]["ios"] != 3000000: err.append("tag ios %r" % got["sides"][1]["ios"])
if got["sides"][1]["unstable_symbols"] != 1: err.append("unstable symbols %r" % got["sides"][1]["unstable_symbols"])
print("\n".join(err)); sys.exit(1 if err else 0)
PY
row() { jq -c --arg s "$1" '.rows[] | select(.symbol == $s)' <<<"$pd"; }
check "$(jq -r .rows[0].symbol <<<"$pd")" = blk_mq_put_tags "the changed function on top"
check "$(row hrtimer_interrupt | jq .unstable)" = true "runs of one kernel that differ are flagged"
check "$(row io_submit_sqes | jq .unstable)" = false "5 instructions in 1M IOs are within the tolerance"
check "$(row blk_mq_put_tags | jq -r '.delta_per_io | . * 1000 | round')" = 7200 "+7.2 instructions per IO"
check "$(jq .sampled_runs <<<"$pd")" -eq 4 "the runs also have sampled profiles"

# limit, sort, and the same diff without ?variant (two variants: the same)
check "$(api GET "/api/v1/experiments/$EXP/perf-diff?limit=2" "$SUB" | jq -r '[.rows[].symbol] | join(",")')" = \
	"blk_mq_put_tags,blk_mq_clear_rqs" "limit 2"
check "$(api GET "/api/v1/experiments/$EXP/perf-diff?sort=stddev&limit=1" "$SUB" | jq -r '.rows[0].symbol')" = \
	hrtimer_interrupt "sort by spread"

# ?kind=samples: the sampled profiles of the same runs
pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?kind=samples" "$SUB")
expect_status 200 "kind=samples"
check "$(jq -r '.event + " " + .kind' <<<"$pd")" = "cpu-clock samples" "sampled diff on request"
api GET "/api/v1/experiments/$EXP/perf-diff?kind=colour" "$SUB" >/dev/null
expect_status 400 "bad kind"

# The text layout (perflab perf-diff prints it)
txt=$(api GET "/api/v1/experiments/$EXP/perf-diff?format=text" "$SUB")
expect_status 200 "text"
grep -qF "# Event 'instructions' (exact count, qemu-tcg-plugin): instructions per IO" <<<"$txt" || fail "event line: $txt"
grep -qxF '#  [1] tag: 2 runs, 3000000 IOs, 2167.200 instr/IO (kernel 1910.200, user 257.000)' <<<"$txt" || fail "side line: $txt"
grep -qxF '# Total/IO [1] tag: +10.200 (+0.473%), kernel +10.200, user +0.000' <<<"$txt" || fail "totals line: $txt"
grep -qxF '#  Base/IO      New/IO    Delta/IO    Share     Spread  Shared Object      Symbol' <<<"$txt" || fail "header: $txt"
grep -qxF '    50.000      57.200      +7.200    2.64%     0.000   [kernel.kallsyms]  [k] blk_mq_put_tags' <<<"$txt" || fail "put_tags row: $txt"
grep -qxF '     0.001       0.226      +0.225    0.01%     0.449!  [kernel.kallsyms]  [k] hrtimer_interrupt' <<<"$txt" || fail "flagged row: $txt"
grep -qxF '    98.765      98.765      +0.000    4.56%     0.000   perflab-bench      [.] worker_loop' <<<"$txt" || fail "user row: $txt"

# Without exact profiles: the sampled diff, and 409 when asked for the exact one
api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"a"},{"name":"b"}]}' >"$TMP/exp2.json"
EXP2=$(jq -r .id "$TMP/exp2.json")
while :; do
	job=$(claim "$RUN" host1 0)
	[ "$(last_status)" = 204 ] && break
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "$(sample_result "$(jq -r .lease <<<"$job")")" >/dev/null
	expect_status 201 "upload without an exact profile"
done
b=$(api GET "/api/v1/experiments/$EXP2/perf-diff" "$SUB")
expect_status 200 "perf-diff without exact profiles"
check "$(jq -r .event <<<"$b")" = cpu-clock "sampled diff without exact profiles"
b=$(api GET "/api/v1/experiments/$EXP2/perf-diff?kind=instructions" "$SUB")
expect_status 409 "kind=instructions without exact profiles"
jq -e '.error | test("exact")' <<<"$b" >/dev/null || fail "409 reason: $b"
echo "ok"
