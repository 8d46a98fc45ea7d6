#!/usr/bin/env bash
# Description: perf-diff ?kind=cycles (perflab perf-diff --kind cycles)
# on runs with the cache model: per symbol estimated cycles, instructions,
# L1 and LL misses per IO of both sides and their deltas, the totals per
# side, checked against values computed here with python3 from the
# uploaded profiles; the default kind of the same runs stays
# instructions; runs without the cache model have no cycles diff (404/
# 400 naming the kind); the text layout names the model.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
FIX=$TOP/tests/fixtures/perfdiff/exact.json
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":2,"max_runs":2,"bench":{"cache":true},"variants":[{"name":"base"},{"name":"tag"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
EXP=$(jq -r .id "$TMP/exp.json")

# The fixture's instruction profiles with cache counts derived from them
# (misses differ per variant and per run: tag reads more lines).
cnt='def est($i): (.l1i_misses + .l1d_read_misses + .l1d_write_misses) as $l1 |
	($i + .data_reads + .data_writes) as $acc |
	.est_cycles = (($acc - $l1) + 5 * ($l1 - .ll_misses) + 35 * .ll_misses);
	def c($i; $k): {data_reads: ($i / 4 | floor), data_writes: ($i / 10 | floor)} |
	.l1i_misses = ($i / 100 | floor) | .l1d_read_misses = (.data_reads / $k | floor) |
	.l1d_write_misses = (.data_writes / 20 | floor) |
	(.l1i_misses + .l1d_read_misses + .l1d_write_misses) as $l1 |
	.ll_misses = ($l1 / 4 | floor) | est($i);'
profile() { # VARIANT INDEX -> the exact_profile with its cache counts
	jq --arg v "$1" --argjson i "$2" "$cnt"'
	  (if $v == "tag" then 10 else 20 end) as $k | .[$v][$i] |
	  .symbols = [.symbols[] | . + c(.insns; $k)] | . + c(.total; $k) |
	  .cache = {model: "lru-write-allocate", line: 64,
	            l1i: {size: 32768, ways: 8}, l1d: {size: 32768, ways: 8},
	            ll: {size: 2097152, ways: 16},
	            weights: {l1_hit: 1, ll_hit: 5, ram: 35}}' "$FIX"
}
n=0
while job=$(claim "$RUN" host1 0) && [ "$(last_status)" = 200 ]; do
	v=$(jq -r .variant.name <<<"$job")
	i=$(jq -r .run_index <<<"$job")
	profile "$v" "$i" >"$TMP/p-$v-$i.json"
	sample_result "$(jq -r .lease <<<"$job")" | jq --slurpfile p "$TMP/p-$v-$i.json" '
	  .bench.exact_profile = $p[0] | $p[0] as $x |
	  .bench.exact_cost = {est_cycles_per_io: ($x.est_cycles / $x.ios),
	    l1_misses_per_io: (($x.l1i_misses + $x.l1d_read_misses + $x.l1d_write_misses) / $x.ios),
	    ll_misses_per_io: ($x.ll_misses / $x.ios)}' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload $v run $i"
	n=$((n + 1))
	[ $n -le 8 ] || fail "more jobs than planned"
done
check "$n" -eq 4 "four runs uploaded"

check "$(api GET "/api/v1/experiments/$EXP/perf-diff" "$SUB" | jq -r .kind)" = instructions \
	"the default kind stays instructions"
pd=$(api GET "/api/v1/experiments/$EXP/perf-diff?kind=cycles&variant=tag" "$SUB")
expect_status 200 "kind=cycles"
echo "$pd" >"$TMP/pd.json"
python3 - "$TMP" "$TMP/pd.json" <<'PY' || fail "cycles perf diff does not match the reference"
import json, sys, glob
d = sys.argv[1]; got = json.load(open(sys.argv[2]))
side = {v: [json.load(open("%s/p-%s-%d.json" % (d, v, i))) for i in (0, 1)] for v in ("base", "tag")}
def l1(s): return s["l1i_misses"] + s["l1d_read_misses"] + s["l1d_write_misses"]
figs = {"": lambda s: s["est_cycles"], "insns_": lambda s: s["insns"],
        "l1_misses_": l1, "ll_misses_": lambda s: s["ll_misses"]}
def mean(runs, sym, f):
    v = []
    for r in runs:
        c = sum(f(s) for s in r["symbols"] if s["sym"] == sym)
        v.append(c / r["ios"])
    return sum(v) / len(v)
err = []
def near(a, b, what):
    if a is None or abs(a - b) > 1e-9 * max(1, abs(b)): err.append("%s: got %r want %r" % (what, a, b))
if got.get("kind") != "cycles": err.append("kind %r" % got.get("kind"))
for row in got["rows"]:
    sym = row["symbol"]
    for k, f in figs.items():
        b, n = mean(side["base"], sym, f), mean(side["tag"], sym, f)
        near(row["base_%sper_io" % k], b, sym + " base " + k)
        near(row["new_%sper_io" % k], n, sym + " new " + k)
        near(row["delta_%sper_io" % k], n - b, sym + " delta " + k)
if len(got["rows"]) != len({s["sym"] for r in side["base"] + side["tag"] for s in r["symbols"]}):
    err.append("rows %d" % len(got["rows"]))
ds = sorted(got["rows"], key=lambda r: -abs(r["delta_per_io"]))
if got["rows"][0]["symbol"] != ds[0]["symbol"]: err.append("not sorted by |delta|")
for i, v in enumerate(("base", "tag")):
    near(got["sides"][i]["est_cycles_per_io"], sum(r["est_cycles"] / r["ios"] for r in side[v]) / 2, v + " est/IO")
    near(got["sides"][i]["ll_misses_per_io"], sum(r["ll_misses"] / r["ios"] for r in side[v]) / 2, v + " ll/IO")
print("\n".join(err)); sys.exit(1 if err else 0)
PY
echo "cycles diff: top row $(jq -r '.rows[0] | "\(.symbol) \(.delta_per_io) cycles/IO, \(.delta_insns_per_io) instr/IO"' <<<"$pd")"

txt=$(api GET "/api/v1/experiments/$EXP/perf-diff?kind=cycles&format=text" "$SUB")
expect_status 200 "cycles text"
grep -q '^# Estimated cycles (cache model, qemu-tcg-plugin)' <<<"$txt" || fail "text: $txt"
grep -q '^# Total/IO \[1\] tag: cycles +' <<<"$txt" || fail "text totals: $txt"

# An experiment whose runs have no cache model has no cycles diff.
api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"a"},{"name":"b"}]}' >"$TMP/e2.json"
E2=$(jq -r .id "$TMP/e2.json")
while job=$(claim "$RUN" host1 0) && [ "$(last_status)" = 200 ]; do
	sample_result "$(jq -r .lease <<<"$job")" | jq --slurpfile f "$FIX" '.bench.exact_profile = $f[0].base[0]' >"$TMP/r.json"
	api POST "/api/v1/jobs/$(jq -r .job_id <<<"$job")/result" "$RUN" "@$TMP/r.json" >/dev/null
	expect_status 201 "upload without the model"
done
b=$(api GET "/api/v1/experiments/$E2/perf-diff?kind=cycles" "$SUB")
st=$(last_status)
[ "$st" -ge 400 ] && [ "$st" -lt 500 ] || fail "cycles without the model: status $st"
jq -e '.error | test("cache model")' <<<"$b" >/dev/null || fail "reason: $b"
echo "no cache model: $st $(jq -r .error <<<"$b")"
exit 0
