#!/usr/bin/env bash
# Description: end to end on the qemu-icount tier: a real perflabd and a
# real perflab-runner building the real base tree. A two-variant
# experiment (base vs kernel-patches/0003 canary, 3 runs each) completes,
# its samples and profiles land in SQLite and GET /api/v1/experiments/{id}
# serves it with a comparison; an experiment whose patch does not apply
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
CANARY=$TOP/kernel-patches/0003-block-canary-spin-in-submit-path.patch
[ -f "$CANARY" ] || skip "$CANARY missing"

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
	--label qemu-icount --workdir "$TMP/runner" --kcache "$TOP/build/kcache" \
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

body=$(api POST /api/v1/experiments "$SUB" "$(jq -n --rawfile p "$CANARY" \
	--argjson b "$bench" '{title:"e2e canary",label:"qemu-icount",
	backend:"qemu-icount",runs:3,max_runs:3,bench:$b,
	variants:[{name:"base"},{name:"canary",patches:[$p]}]}')")
expect_status 201 "create the canary experiment"
id=$(jq -r .id <<<"$body")

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
check "$(jq '.runs | length' <<<"$exp")" -eq 6 "six runs"
check "$(jq '[.runs[] | select((.samples | length) >= 3)] | length' <<<"$exp")" -eq 6 "per-second samples in every run"
jq -e '.comparison' <<<"$exp" >/dev/null || fail "no comparison served"
echo "$exp" | jq -c '.comparison' | head -c 2000; echo

runs=$(sql "SELECT count(*) FROM runs WHERE experiment_id = $id")
check "$runs" -eq 6 "six runs in SQLite"
nsamples=$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.experiment_id = $id")
check "$nsamples" -ge 18 "samples in SQLite"
nprof=$(sql "SELECT count(*) FROM profile_symbols ps JOIN runs r ON r.id = ps.run_id WHERE r.experiment_id = $id")
check "$nprof" -gt 0 "profile symbols in SQLite"
echo "runs=$runs samples=$nsamples profile_symbols=$nprof"
# perf-diff (issue 6): the top rows by |delta| are block/io_uring kernel
# symbols (the canary spins in the submit path).
pd=$(api GET "/api/v1/experiments/$id/perf-diff?variant=canary&limit=3&format=text" "$SUB")
expect_status 200 "perf-diff"
echo "$pd"
top=$(grep -E '^ +[0-9. %+-]+\[kernel' <<<"$pd" | grep -cE '\[k\] .*(blk|bio|io_|submit|null_|sbitmap)')
check "$top" -eq 3 "top perf-diff rows are block/io_uring kernel symbols"
grep -E "job [0-9]+ done|failed" "$TMP/runner.log" | tail -20
echo "total $(($(date +%s) - start))s"
exit 0
