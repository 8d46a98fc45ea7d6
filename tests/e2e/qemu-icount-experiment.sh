#!/usr/bin/env bash
# Description: end to end on the qemu-icount tier: a real perflabd and a
# real perflab-runner building the real base tree. The canary series
# (kernel-patches/series/canary.json: base vs 0003 canary, 5 interleaved
# runs each), submitted with `perflab run` as a user would, completes; its
# samples and profiles land in SQLite, GET /api/v1/experiments/{id} serves
# it, the canary reads as a regression (`perflab watch
# --fail-on-regression` exits 1) and the perf diff, exact on this tier
# (perflab-insn plugin: instructions per IO), has blk_mq_submit_bio on top
# with the canary's ~770 instructions per IO and every other symbol within
# 2 instructions per IO (the canary is a separate build: io_uring's
# io_free_batch_list moves by exactly 1); the runs of each kernel agree (no
# '!' on its top row; other rows may carry one: the guest's wall-clock-seeded
# sbitmap hints make about one boot in 16 differ in
# __sbitmap_queue_get_batch). An experiment whose patch does not apply
# ends with a failed variant showing patch(1)'s message through the API.
# Kernel images are cached in build/kcache (shared with other tests), so
# only the first run on a machine pays the cold build (~4 min on 2 cores).
. "$(dirname "$0")/../api/lib.sh"

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
RUNNER=$TOP/build/perflab-runner
for f in "$RUNNER" "$TOP/build/perflab-bench-static"; do
	[ -x "$f" ] || skip "$f is not built (make; make static-bench)"
done
[ -f "$TOP/build/linux-source-6.1/Makefile" ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
SERIES=$TOP/kernel-patches/series/canary.json
[ -f "$SERIES" ] || skip "$SERIES missing"
[ -x "$TOP/build/perflab" ] || skip "build/perflab is not built"
perflab() { "$TOP/build/perflab" --server "$BASE" --key "$SUB" "$@"; }
runs=$(jq .runs "$SERIES")

RUNNER_PID=
stop_all() {
	if [ -n "$RUNNER_PID" ]; then
		kill "$RUNNER_PID" 2>/dev/null
		wait "$RUNNER_PID" 2>/dev/null
	fi
	[ -f "$TMP/runner.log" ] && cp "$TMP/runner.log" "$TOP/build/test-logs/e2e-runner.log" 2>/dev/null
	cleanup
}
trap stop_all EXIT

start_daemon
SUB=$(make_key submit e2e)
RK=$(make_key runner e2e-runner)
mkdir -p "$TMP/runner"
"$RUNNER" --server "$BASE" --key "$RK" --backend qemu-icount --name e2e-host \
	--label qemu-icount --workdir "$TMP/runner" --kcache "$KCACHE" \
	--claim-wait 2 >"$TMP/runner.log" 2>&1 &
RUNNER_PID=$!

bench='{"depth":128,"submit_batch":32,"complete_batch":32,"bs":512,
 "polled":true,"fixedbufs":true,"regfiles":true,"random":true,"threads":1,
 "runtime":3,"warmup":1,"profile":true,"ios":0,"target":"nullb"}'

# A patch the daemon accepts but that cannot apply to the tree.
sample_patch "perflab e2e: a patch that does not apply" >"$TMP/bad.patch"
body=$(api POST /api/v1/experiments "$SUB" "$(jq -n --rawfile p "$TMP/bad.patch" \
	--argjson b "$bench" '{title:"e2e bad patch",label:"qemu-icount",
	backend:"qemu-icount",runs:1,max_runs:1,bench:$b,
	variants:[{name:"base"},{name:"bad",patches:[$p]}]}')")
expect_status 201 "create the bad-patch experiment"
bad=$(jq -r .id <<<"$body")

id=$(cd "$TOP" && perflab run -q "$SERIES") || fail "perflab run $SERIES failed"

# wait_done ID SECONDS: final state in $state.
wait_done() {
	local i
	for ((i = 0; i < $2; i++)); do
		[ -d "$TMP" ] || { echo "FAIL: $TMP vanished"; exit 1; }
		state=$(api GET "/api/v1/experiments/$1" "$SUB" | jq -r .state)
		case $state in done | failed | cancelled) return ;; esac
		kill -0 "$RUNNER_PID" 2>/dev/null || fail "runner died: $(tail -20 "$TMP/runner.log")"
		sleep 1
	done
	state="timeout($state)"
}

start=$(date +%s)
wait_done "$bad" 600
echo "bad-patch experiment: $state after $(($(date +%s) - start))s"
exp=$(api GET "/api/v1/experiments/$bad" "$SUB")
echo "$exp" | jq -c '{state, variants: [.variants[]? | {name, state, error}]}' || true
grep -q "does not apply" <<<"$exp" || fail "patch(1) message not visible through the API"
grep -q "FAILED" <<<"$exp" || fail "patch(1) hunk failure not visible through the API"

wait_done "$id" 900
echo "canary experiment: $state after $(($(date +%s) - start))s"
[ "$state" = done ] || fail "canary experiment ended '$state': $(tail -30 "$TMP/runner.log")"
exp=$(api GET "/api/v1/experiments/$id" "$SUB")
expect_status 200 "GET experiment"
check "$(jq '.runs | length' <<<"$exp")" -eq $((2 * runs)) "every planned run"
check "$(jq '[.runs[] | select((.samples | length) >= 3)] | length' <<<"$exp")" -eq $((2 * runs)) "per-second samples in every run"
verdict=$(jq -r '.comparison[] | select(.variant == "canary") | .verdict' <<<"$exp")
check "$([ "$verdict" = regression ] && echo 1 || echo 0)" -eq 1 "canary verdict '$verdict' is regression"
perflab watch "$id" --fail-on-regression --interval 1 >"$TMP/watch" 2>&1
rc=$?
cat "$TMP/watch"
check "$rc" -eq 1 "perflab watch --fail-on-regression exit code"
jq -e '.comparison' <<<"$exp" >/dev/null || fail "no comparison served"
echo "$exp" | jq -c '.comparison' | head -c 2000; echo

# the guest's null_blk queue must hold the whole queue depth, or QD128
# would be measured with half the IOs waiting for tags
short=$(sql "SELECT count(*) FROM runs WHERE experiment_id = $id AND
	coalesce(json_extract(device, '$.nr_requests'), 0) <
	json_extract(params, '$.depth')")
check "$short" -eq 0 "runs whose device queue is shallower than the queue depth"
nruns=$(sql "SELECT count(*) FROM runs WHERE experiment_id = $id")
check "$nruns" -eq $((2 * runs)) "runs in SQLite"
nsamples=$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.experiment_id = $id")
check "$nsamples" -ge $((6 * runs)) "samples in SQLite"
# qemu-icount runs carry exact profiles (the sampler is off there).
nprof=$(sql "SELECT count(*) FROM exact_profile_symbols ps JOIN runs r ON r.id = ps.run_id WHERE r.experiment_id = $id")
check "$nprof" -gt 0 "exact profile symbols in SQLite"
nexact=$(sql "SELECT count(*) FROM exact_profiles ep JOIN runs r ON r.id = ep.run_id WHERE r.experiment_id = $id")
check "$nexact" -eq $((2 * runs)) "an exact profile for every run"
echo "runs=$nruns samples=$nsamples exact_profile_symbols=$nprof"
# perf-diff: exact instructions per IO, sorted by |delta|.
pdj=$(api GET "/api/v1/experiments/$id/perf-diff?variant=canary&limit=5" "$SUB")
expect_status 200 "perf-diff (JSON)"
check "$(jq -r '.kind' <<<"$pdj" | grep -c '^instructions$')" -eq 1 "the perf diff is exact on qemu-icount"
pd=$(api GET "/api/v1/experiments/$id/perf-diff?variant=canary&limit=5&format=text" "$SUB")
expect_status 200 "perf-diff"
echo "$pd"
rows=$(grep -E '\[k\] |\[\.\] ' <<<"$pd" | grep -v '^#')
check "$(wc -l <<<"$rows")" -eq 5 "five perf-diff rows"
# Delta/IO is the third number of a row (Base/IO New/IO Delta/IO Share).
top=$(head -n1 <<<"$rows")
check "$(grep -cE '\[k\] blk_mq_submit_bio *$' <<<"$top")" -eq 1 \
	"the top perf-diff row is blk_mq_submit_bio, where the canary spins"
d=$(awk '{ print $3 }' <<<"$top")
check "$(awk -v d="$d" 'BEGIN { print (d > 700 && d < 850) }')" -eq 1 \
	"blk_mq_submit_bio delta $d instructions per IO (256 steps of ~3)"
second=$(sed -n 2p <<<"$rows" | awk '{ d = $3; if (d < 0) d = -d; print d }')
check "$(awk -v d="$second" 'BEGIN { print (d <= 2) }')" -eq 1 \
	"the next symbol moves by $second <= 2 instructions per IO"
check "$(grep -c '!' <<<"$top")" -eq 0 "runs of one kernel agree on blk_mq_submit_bio (no '!')"
grep -E "job [0-9]+ done|failed" "$TMP/runner.log" | tail -20
# One line per job and phase, and nothing an operator must act on (the
# bad patch's "failed (patch_apply)" is the job's outcome, not an error).
bad=$(runner_log_problems "$TMP/runner.log")
[ -z "$bad" ] || fail "lines to act on in the runner log: $bad"
echo "total $(($(date +%s) - start))s"
exit 0
