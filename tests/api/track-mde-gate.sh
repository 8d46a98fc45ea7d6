#!/usr/bin/env bash
# Description: a track's confirmed change point smaller than what the
# bisection's 5-run steps resolve on this host starts no bisection, and
# the track says why. A simulated runner answers by commit with its
# 0.05 % per-second noise (run values about 0.02 % apart); the track
# measures every commit c0..c24 with 3 runs each at the track defaults
# (5, 0.001), and from c12 on the value is 0.06 % lower: a clear step
# for the detection over 25 points of 3 runs, below the MDE of a 5 vs 5
# run first step. The change point is confirmed, its bisect_note says
# "below what 5-run steps resolve on this host ... not bisected" with an
# MDE above the step, no bisection exists, and the noise the note names
# is the pooled within-experiment sd of the track's runs (50 dof once all
# 25 points are in: the gate is looked at again on every new point),
# recomputed here from the stored runs (python, independent of the
# daemon's code).
# Cost: about 20 s (75 simulated runs).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/gitlib.sh"
command -v python3 >/dev/null || skip "python3 is not installed"
start_daemon
ADM=$(make_key admin root)
R1=$(make_key runner r1)
REPO=$TMP/repo
make_repo "$REPO" 0
api POST /api/v1/bases "$ADM" "$(jq -n --arg u "$REPO" '{name:"g", git:$u}')" >/dev/null
expect_status 201 "git base"
body=$(api POST /api/v1/tracks "$ADM" '{"base":"g","label":"small","runs":3,
	"every":{"commits":1},"bench":{"runtime":6,"warmup":1}}')
expect_status 201 "track"
T=$(jq -r .id <<<"$body")
check "$(jq -r .detect.min_size <<<"$body")" -eq 5 "track defaults"
check "$(jq -r .detect.migrated_from <<<"$body")" = null "a new track was not migrated"
add_commits "$REPO" 1 24
for i in $(seq 0 24); do C[$i]=$(commit_of "$REPO" $i); done
jq -n --args '{default: 100000, values: ([$ARGS.positional[] | {(.): 99940}] | add)}' \
	"${C[@]:12}" >"$TMP/spec.json"
python3 "$TOP/tests/lib/fake_runner.py" "$BASE" "$R1" sim lab --spec "$TMP/spec.json" \
	>"$TMP/runner.log" 2>&1 &
RUNNER=$!
trap 'kill $RUNNER 2>/dev/null; cleanup' EXIT
body=$(api POST /api/v1/tracks/$T/poll "$ADM")
expect_status 200 "poll"
check "$(jq -r .queued <<<"$body")" -eq 24 "c1 .. c24 queued"

for _ in $(seq 240); do
	body=$(api GET /api/v1/tracks/$T "$ADM")
	n=$(jq -r '[.points[] | select(.value != null)] | length' <<<"$body")
	note=$(jq -r '[.change_points[] | select(.confirmed)][0].bisect_note // empty' <<<"$body")
	# the note of the last point's noise (re-gated on every new point)
	[ "$n" -eq 25 ] && grep -q " over 50 dof" <<<"$note" && break
	kill -0 $RUNNER 2>/dev/null || fail "the simulated runner died: $(tail "$TMP/runner.log")"
	sleep 0.5
done
echo "$body" | jq -c '.change_points'
check "$n" -eq 25 "25 points measured"
[ -n "$note" ] || fail "no confirmed change point with a note: $(jq -c .change_points <<<"$body")"
check "$(jq -r '[.change_points[] | select(.confirmed)][0].bad' <<<"$body")" = "${C[12]}" "change point at c12"
grep -q "below what 5-run steps resolve on this host" <<<"$note" || fail "note: $note"
grep -q "not bisected" <<<"$note" || fail "note: $note"
check "$(jq -r '[.change_points[] | select(.confirmed)][0] | (.bisect_mde_pct > (.delta_pct | fabs))' <<<"$body")" = true "MDE above the step"
sleep 1.5	# a bisect tick later: still none
check "$(jq -r '.bisections | length' <<<"$(api GET /api/v1/tracks/$T "$ADM")")" -eq 0 "no bisection"
check "$(sql 'SELECT count(*) FROM bisections')" -eq 0 "no bisection row"

# The note's sd and dof against the stored runs, pooled here.
sql "SELECT tp.experiment_id, rm.value FROM track_points tp JOIN runs r ON
	r.experiment_id = tp.experiment_id JOIN run_metrics rm ON rm.run_id = r.id
	AND rm.metric = 'iops' WHERE tp.track_id = $T" >"$TMP/runs.txt"
ref=$(python3 - "$TMP/runs.txt" <<'PY'
import collections, math, sys
g = collections.defaultdict(list)
for line in open(sys.argv[1]):
    e, v = line.strip().split("|")
    g[e].append(float(v))
ss = dof = 0
for v in g.values():
    n = len(v)
    if n < 2:
        continue
    m = sum(v) / n
    sd = 100 * math.sqrt(sum((x - m) ** 2 for x in v) / (n - 1)) / m
    ss += (n - 1) * sd * sd
    dof += n - 1
print("%.6g %.0f" % (math.sqrt(ss / dof), dof))
PY
)
read -r sd dof <<<"$ref"
got=$(sed -n "s/.* of \([0-9.e-]*\) % over \([0-9]*\) dof of the track's runs.*/\1 \2/p" <<<"$note")
python3 -c "import sys; g, d = map(float, '$got'.split()); sys.exit(not (abs(g - $sd) <= 0.006 * $sd and d == $dof))" ||
	fail "note '$note' does not name sd $sd % over $dof dof"
echo "track-mde-gate ok"
