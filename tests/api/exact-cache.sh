#!/usr/bin/env bash
# Description: an exact profile with the cache model (bench.exact_profile
# with "cache" and seven counts per symbol, bench.exact_cost with the
# per-IO figures, docs/contracts.md section 1) is stored: the totals in
# exact_profile_cache, per symbol (same-named rows summed) in
# exact_profile_cache_symbols, est_cycles_per_io and the miss rates in
# run_metrics. Hostile ones are refused with 400 and a reason naming the
# field, storing nothing: estimated cycles that are not what the weights
# give, LL above L1 misses, L1 misses above two lines per access, counts
# negative, huge or above the totals, an impossible geometry, unordered
# weights, cache counts without the model (and the reverse), per-IO
# figures that are not the totals over ios. The estimates here are
# computed with jq from the weights, independently of the C code. The
# bench parameter "cache" is a boolean and reaches the job.
. "$(dirname "$0")/lib.sh"
FIX=$TOP/tests/fixtures/perfdiff/exact.json
start_daemon
SUB=$(make_key submit alice)
RUN=$(make_key runner r1)
register_host "$RUN" host1

api POST /api/v1/experiments "$SUB" '{"runs":1,"max_runs":1,"variants":[{"name":"base"}]}' >"$TMP/exp.json"
expect_status 201 "create experiment"
job=$(claim "$RUN" host1 0)
expect_status 200 "claim"
JOB=$(jq -r .job_id <<<"$job")
LEASE=$(jq -r .lease <<<"$job")

# Counts derived from the instructions; est = L1 hits + 5 LL hits + 35 RAM.
cnt='def est($i): (.l1i_misses + .l1d_read_misses + .l1d_write_misses) as $l1 |
	($i + .data_reads + .data_writes) as $acc |
	.est_cycles = (($acc - $l1) + 5 * ($l1 - .ll_misses) + 35 * .ll_misses);
	def c($i): {data_reads: ($i / 4 | floor), data_writes: ($i / 10 | floor)} |
	.l1i_misses = ($i / 100 | floor) | .l1d_read_misses = (.data_reads / 20 | floor) |
	.l1d_write_misses = (.data_writes / 20 | floor) |
	(.l1i_misses + .l1d_read_misses + .l1d_write_misses) as $l1 |
	.ll_misses = ($l1 / 4 | floor) | est($i);'
good=$(sample_result "$LEASE" | jq --slurpfile f "$FIX" "$cnt"'
	.bench.exact_profile = ($f[0].base[0] |
	  .symbols = [.symbols[] | . + c(.insns)] | . + c(.total) |
	  .cache = {model: "lru-write-allocate", line: 64,
	            l1i: {size: 32768, ways: 8}, l1d: {size: 32768, ways: 8},
	            ll: {size: 2097152, ways: 16},
	            weights: {l1_hit: 1, ll_hit: 5, ram: 35}}) |
	.bench.exact_profile as $p |
	.bench.exact_cost = {est_cycles_per_io: ($p.est_cycles / $p.ios),
	  l1_misses_per_io: (($p.l1i_misses + $p.l1d_read_misses + $p.l1d_write_misses) / $p.ios),
	  ll_misses_per_io: ($p.ll_misses / $p.ios)}')
refuse() { # refuse JQ-EDIT WHAT [FIELD]
	local b
	b=$(api POST "/api/v1/jobs/$JOB/result" "$RUN" "$(jq "$1" <<<"$good")")
	expect_status 400 "$2"
	jq -e --arg f "${3:-exact_}" '.error | contains($f)' <<<"$b" >/dev/null ||
		fail "$2: reason does not name ${3:-exact_}: $b"
	echo "refused ($2): $(jq -r .error <<<"$b")"
}
E=.bench.exact_profile
S0=$E.symbols[0]
refuse "$S0.est_cycles += 1" "symbol est_cycles off by one" est_cycles
refuse "$E.est_cycles -= 1" "total est_cycles off by one" est_cycles
refuse "$S0.ll_misses = ($S0.l1i_misses + $S0.l1d_read_misses + $S0.l1d_write_misses + 1)" \
	"LL above L1" ll_misses
refuse "$S0.l1i_misses = (2 * $S0.insns + 1)" "L1I misses above two per fetch" "L1 misses"
refuse "$S0.data_reads = -1" "negative count" data_reads
refuse "$S0.l1d_write_misses = 10000000000000000" "count above 2^53" l1d_write_misses
refuse "$cnt $E |= (.ll_misses = 0 | est(.total))" "symbols above the total" ll_misses
refuse "del($S0.est_cycles)" "symbol without est_cycles" est_cycles
refuse "$E.cache.ll.size = 3145728" "LL sets not a power of two" cache.ll
refuse "$E.cache.line = 48" "48-byte lines" line
refuse "$E.cache.weights = {l1_hit: 5, ll_hit: 1, ram: 35}" "unordered weights" weights
refuse "$E.cache.model = \"plru\"" "unknown model" model
refuse "$E.cache.colour = 1" "unknown cache field" colour
refuse "del($E.cache)" "counts without the model" "without the cache model"
refuse ".bench.exact_cost.est_cycles_per_io += 1" "est/IO not the total over ios" est_cycles_per_io
refuse "del(.bench.exact_cost)" "model without exact_cost" exact_cost
refuse ".bench.exact_cost.x = 1" "unknown exact_cost field" exact_cost
check "$(sql 'SELECT count(*) FROM runs') $(sql 'SELECT count(*) FROM exact_profile_cache') $(sql 'SELECT count(*) FROM exact_profile_cache_symbols')" = "0 0 0" \
	"refused bodies stored nothing"

api POST "/api/v1/jobs/$JOB/result" "$RUN" "$good" >/dev/null
expect_status 201 "a well-formed cache profile"
want=$(jq -r "$E | [.line // .cache.line, .est_cycles, .ll_misses, .data_reads] | @tsv" <<<"$good" | tr '\t' ' ')
check "$(sql 'SELECT line, est_cycles, ll_misses, data_reads FROM exact_profile_cache' | tr '|' ' ')" = "$want" "totals stored"
# The fixture names blk_mq_submit_bio twice: stored once, summed.
want=$(jq "[$E.symbols[] | select(.sym == \"blk_mq_submit_bio\") | .est_cycles] | add" <<<"$good")
check "$(sql "SELECT x.est_cycles FROM exact_profile_cache_symbols x JOIN symbols s ON s.id = x.symbol_id WHERE s.name = 'blk_mq_submit_bio'")" -eq "$want" \
	"same-named symbols summed"
check "$(sql 'SELECT count(*) FROM exact_profile_cache_symbols')" -eq "$(sql 'SELECT count(*) FROM exact_profile_symbols')" \
	"every symbol has its cache counts"
want=$(jq ".bench.exact_cost.est_cycles_per_io" <<<"$good")
got=$(sql "SELECT value FROM run_metrics WHERE metric = 'est_cycles_per_io'")
awk -v a="$got" -v b="$want" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }' ||
	fail "est_cycles_per_io stored $got, want $want"
check "$(sql "SELECT count(*) FROM run_metrics WHERE metric IN ('l1_misses_per_io', 'll_misses_per_io')")" -eq 2 "miss rates stored"
echo "cache profile stored: est_cycles_per_io $got"

# "cache": true in the bench parameters switches the model on for the
# runner; it is a boolean like the others and reaches the job.
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"c"}],"bench":{"cache":2}}' >"$TMP/b"
expect_status 400 "cache: 2"
jq -e '.error | contains("cache")' "$TMP/b" >/dev/null || fail "cache: 2: $(cat "$TMP/b")"
api POST /api/v1/experiments "$SUB" '{"runs":1,"variants":[{"name":"c"}],"bench":{"cache":true}}' >/dev/null
expect_status 201 "cache: true"
job=$(claim "$RUN" host1 0)
expect_status 200 "claim the cache job"
check "$(jq -r .bench.cache <<<"$job")" = true "the job carries cache: true"
exit 0
