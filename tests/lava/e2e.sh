#!/usr/bin/env bash
# Description: perflab with an existing LAVA lab, end to end. A real LAVA
# 2023.01 (tests/lava/lib.sh: PostgreSQL, gunicorn, scheduler, publisher,
# a lava-worker and a qemu device with no_kvm) drives the boots; perflabd
# plans and judges. Two labs are bound to the one LAVA device (pinned by
# its tag): lava-icount (template dist/lava/qemu-icount.json: icount and
# the insn plugin, callbacks on) and lava-lost (its callbacks go to a
# closed port, so only polling brings its jobs back).
#   - control vs the canary patch (0004, perflab_canary=16), 5 runs a side,
#     one LAVA job per perflab job in seq order: verdict regression, an
#     exact profile for every run with blk_mq_submit_bio on top of the
#     exact perf diff, LAVA job ids on the experiment (API) and its page,
#     callbacks received; LAVA's own definition, parsed with PyYAML, keeps
#     the hostile title and the variant named "yes" as the strings they
#     are (string pasting would make "yes" a boolean and the title new
#     YAML);
#   - a variant whose kernel cannot find init: every attempt ends
#     Incomplete in LAVA, perflab retries it up to --max-attempts, then
#     fails it with LAVA's reason;
#   - a job of lava-lost completes through polling alone (no callback);
#   - a toggle (0004 + 0007, canary 0 vs 64 written at runtime, 2 rounds)
#     runs as one LAVA job for its boot's 4 jobs: one boot id, positions
#     0-3, an exact profile each, ~3 instructions per canary step; a
#     toggle whose value the kernel refuses fails that variant with
#     "setting" and the kernel's words, the run before it stored;
#   - LAVA's API token appears in no API answer and no log of perflabd.
# The kernels come from perflab's build path: a perflab-runner --role
# builder gets the build tasks of the jobs LAVA waits for and uploads the
# images to perflabd's store (the base image from build/kcache, the
# canary built in the submitter's trust domain, mostly ccache hits); the
# lab's host is a test-only host whose config hashes are its builder's;
# LAVA downloads the kernels from the store and never builds.
. "$(dirname "$0")/../api/lib.sh"
. "$(dirname "$0")/lib.sh"

RUNNER=$TOP/build/perflab-runner
PLUGIN=$TOP/build/perflab-insn.so
for f in "$RUNNER" "$TOP/build/perflab-bench-static" "$PLUGIN"; do
	[ -e "$f" ] || skip "$f is not built (make)"
done
[ -f "$TOP/build/linux-source-6.1/Makefile" ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
# PyYAML as LAVA has it: Debian's python3 (another python3 may come first).
PY=/usr/bin/python3
$PY -c 'import yaml' 2>/dev/null || skip "python3-yaml is not installed"
lava_check_tools
CANARY=$TOP/kernel-patches/0004-block-perflab_canary-calibration-parameter.patch
T0=$(date +%s)

all_done() {
	local rc=$?
	if [ $rc -ne 0 ] && [ -n "${LAVA_DIR:-}" ]; then
		mkdir -p "$TOP/build/test-logs"
		tail -n 30 "$LAVA_DIR"/log/*.log >"$TOP/build/test-logs/lava-e2e.log" 2>&1
		cp "$TMP/daemon.log" "$TOP/build/test-logs/lava-e2e-perflabd.log" 2>/dev/null
	fi
	if [ -n "${BUILDER_PID:-}" ]; then
		kill "$BUILDER_PID" 2>/dev/null
		wait "$BUILDER_PID" 2>/dev/null
		[ $rc -ne 0 ] && cp "$TMP/builder.log" "$TOP/build/test-logs/lava-e2e-builder.log" 2>/dev/null
	fi
	lava_stop
	cleanup
	exit $rc
}
trap all_done EXIT

"$RUNNER" lava-guest --workdir "$TMP/guest" >/dev/null || fail "lava-guest"
T_BUILD=$(date +%s)

lava_start || fail "LAVA did not start: $(tail -5 "$LAVA_DIR"/log/*.log)"
T_LAVA=$(date +%s)
echo "LAVA up at $LAVA_URL in $((T_LAVA - T_BUILD)) s (device $LAVA_DEVICE, tag $LAVA_TAG)"

PORT=$(lava_free_port)
start_daemon --listen "127.0.0.1:$PORT" --max-attempts 2 --web "$TOP/web" \
	--lava-guest "$TMP/guest" --lava-url "http://127.0.0.1:$PORT"
ADMIN=$(make_key admin lava-admin)
# The builder of both labs' labels: their hosts take its config hashes.
"$RUNNER" --server "$BASE" --key "$(make_key runner lava-builder)" \
	--backend qemu-icount --name lava-builder --label lava-icount \
	--label lava-lost --role builder --workdir "$TMP/builder" \
	--kcache "$KCACHE" --claim-wait 2 >"$TMP/builder.log" 2>&1 &
BUILDER_PID=$!
wait_host "$ADMIN" lava-builder

lab() {	# NAME LABEL [extra jq object]
	api POST /api/v1/lava/labs "$ADMIN" "$(jq -n --arg n "$1" --arg l "$2" \
		--arg u "$LAVA_URL" --arg t "$LAVA_TOKEN_FILE" --arg tag "$LAVA_TAG" \
		--arg tf "$TOP/dist/lava/qemu-icount.json" --arg p "$PLUGIN" \
		--argjson x "${3:-{\}}" '{name: $n, label: $l, url: $u, token_file: $t,
		device_type: "qemu", backend: "qemu-icount", tags: [$tag],
		template_file: $tf, vars: {insn_plugin: $p}} + $x')"
}
lab lava-icount lava-icount >/dev/null
expect_status 201 "bind lava-icount"
lab lava-lost lava-lost '{"callback_url": "http://127.0.0.1:1", "poll_seconds": 3}' >/dev/null
expect_status 201 "bind lava-lost (callbacks lost)"
lab lava-icount lava-icount >/dev/null
expect_status 409 "a second lab of the same name"
labs=$(api GET /api/v1/lava/labs "$ADMIN")
check "$(jq '.labs | length' <<<"$labs")" -eq 2 "two labs listed"

bench='{"runtime":3,"warmup":1,"ios":200000,"target":"nullb","profile":true}'
TITLE='lava e2e: x" ] } - deploy: {to: evil} # ${kernel_url} {kernel} '\''q'\'''
exp_body=$(jq -n --rawfile p "$CANARY" --argjson b "$bench" --arg t "$TITLE" \
	'{title: $t, label: "lava-icount", backend: "qemu-icount", runs: 5,
	  max_runs: 5, bench: $b, variants: [{name: "base"},
	  {name: "yes", patches: [$p], cmdline: "perflab_canary=16"}]}')
body=$(api POST /api/v1/experiments "$ADMIN" "$exp_body")
expect_status 201 "submit control vs canary"
MAIN=$(jq -r .id <<<"$body")
body=$(api POST /api/v1/experiments "$ADMIN" "$(jq -n --argjson b "$bench" \
	'{title: "lava e2e: no init", label: "lava-icount", backend: "qemu-icount",
	  runs: 1, max_runs: 1, bench: $b, variants: [{name: "noinit",
	  cmdline: "rdinit=/perflab-no-init init=/perflab-no-init"}]}')")
expect_status 201 "submit the experiment whose kernel finds no init"
NOINIT=$(jq -r .id <<<"$body")
# Toggles: one LAVA job per boot (0004 + 0007: the canary at runtime).
P0007=$TOP/kernel-patches/0007-block-perflab_canary-runtime-sysfs-parameter.patch
CAN=/sys/module/perflab/parameters/canary
tog_body() {	# TITLE VALUE_B RUNS
	jq -n --rawfile p4 "$CANARY" --rawfile p7 "$P0007" --arg c "$CAN" --arg t "$1" \
		--arg v "$2" --argjson r "$3" --argjson b "$bench" '{title: $t,
		label: "lava-icount", backend: "qemu-icount", runs: $r, max_runs: $r,
		toggle: true, bench: $b,
		variants: [{name: "a", patches: [$p4, $p7], settings: {($c): "0"}},
			   {name: "b", patches: [$p4, $p7], settings: {($c): $v}}]}'
}
body=$(api POST /api/v1/experiments "$ADMIN" "$(tog_body "lava e2e: toggle" 64 2)")
expect_status 201 "submit the toggle (canary 0 vs 64, 2 rounds in one boot)"
TOG=$(jq -r .id <<<"$body")
body=$(api POST /api/v1/experiments "$ADMIN" "$(tog_body "lava e2e: toggle refused" 2000000 1)")
expect_status 201 "submit the toggle whose setting the kernel refuses"
TOGBAD=$(jq -r .id <<<"$body")
body=$(api POST /api/v1/experiments "$ADMIN" "$(jq -n --argjson b "$bench" \
	'{title: "lava e2e: lost callback", label: "lava-lost", backend: "qemu-icount",
	  runs: 1, max_runs: 1, bench: $b, variants: [{name: "base"}]}')")
expect_status 201 "submit the experiment of the lab without callbacks"
LOST=$(jq -r .id <<<"$body")

wait_state() {	# EXPERIMENT SECONDS: $state
	local i
	for ((i = 0; i < $2; i++)); do
		state=$(api GET "/api/v1/experiments/$1" "$ADMIN" | jq -r .state)
		case $state in done | failed | cancelled) return ;; esac
		kill -0 "$BUILDER_PID" 2>/dev/null || fail "the builder died: $(tail -20 "$TMP/builder.log")"
		sleep 1
	done
	state="timeout($state)"
}

wait_state "$MAIN" 720
T_MAIN=$(date +%s)
echo "control vs canary: $state after $((T_MAIN - T_LAVA)) s"
exp=$(api GET "/api/v1/experiments/$MAIN" "$ADMIN")
[ "$state" = done ] || fail "main experiment $state: $(jq -c '[.jobs[] | {variant, state, attempt, failure_reason, message}]' <<<"$exp")"
check "$(jq '.runs | length' <<<"$exp")" -eq 10 "ten runs"
verdict=$(jq -r '.comparison[] | select(.variant == "yes") | .verdict' <<<"$exp" | sort -u)
echo "verdicts of the canary: $verdict"
grep -qx regression <<<"$verdict" || fail "canary verdict '$verdict', not regression"
nexact=$(sql "SELECT count(*) FROM exact_profiles ep JOIN runs r ON r.id = ep.run_id WHERE r.experiment_id = $MAIN")
check "$nexact" -eq 10 "an exact profile for every run"
pd=$(api GET "/api/v1/experiments/$MAIN/perf-diff?variant=yes&limit=3&format=text" "$ADMIN")
expect_status 200 "perf-diff"
echo "$pd"
top=$(grep -E '\[k\] |\[\.\] ' <<<"$pd" | grep -v '^#' | head -n1)
grep -qE '\[k\] blk_mq_submit_bio *$' <<<"$top" ||
	fail "the exact perf diff's top row is not blk_mq_submit_bio: $top"
d=$(awk '{ print $3 }' <<<"$top")
check "$(awk -v d="$d" 'BEGIN { print (d > 16 * 2.5 && d < 16 * 4.5) }')" -eq 1 \
	"blk_mq_submit_bio +$d instructions per IO at perflab_canary=16 (~3 a step)"

# The images came through the builder: its uploads, booted by every LAVA job.
sql "SELECT substr(i.key, 1, 12) || ' ' || h.name || ' ' || (i.created_at - $T_LAVA) || ' s after LAVA was up, built in ' ||
	coalesce(json_extract(i.meta, '$.seconds'), '?') || ' s' FROM images i JOIN hosts h ON h.id = i.host_id" |
	sed 's/^/image /'
check "$(sql "SELECT count(*) FROM lava_jobs lj JOIN jobs j ON j.id = lj.job_id JOIN images i ON
	i.key = lj.image_key JOIN hosts h ON h.id = i.host_id WHERE j.experiment_id = $MAIN AND
	h.name = 'lava-builder'")" -eq 10 "every LAVA job boots an image the builder uploaded"
check "$(sql "SELECT count(DISTINCT lj.image_key) FROM lava_jobs lj JOIN jobs j ON j.id = lj.job_id
	WHERE j.experiment_id = $MAIN")" -eq 2 "two images: base and canary"
check "$(sql "SELECT role FROM hosts WHERE name = 'lava-icount'")" = test "the lab's host is a test host"

# LAVA job ids with the experiment, one LAVA job per perflab job, in order.
lj=$(jq '.lava_jobs' <<<"$exp")
check "$(jq 'length' <<<"$lj")" -eq 10 "ten LAVA jobs"
check "$(jq '[.[] | select(.state == "done" and .lava_id > 0 and .outcome == "result")] | length' <<<"$lj")" -eq 10 "every LAVA job done with a result"
check "$(jq '[.[] | select(.callbacks >= 1)] | length' <<<"$lj")" -eq 10 "every LAVA job called back"
check "$(jq '[.[].lava_id] == ([.[].lava_id] | sort)' <<<"$lj")" = true "LAVA jobs submitted in seq order"
seqv=$(jq -r '[.jobs | sort_by(.seq)[] | .variant] | join(" ")' <<<"$exp")
lavav=$(for id in $(jq -r '.[].lava_id' <<<"$lj"); do
	lava_api GET "api/v0.2/jobs/$id/" | jq -r .definition |
		$PY -c 'import sys, yaml; print(yaml.safe_load(sys.stdin)["metadata"]["perflab.variant"])'
done | tr '\n' ' ' | sed 's/ $//')
check "$lavav" = "$seqv" "LAVA ran the variants in the experiment's order"
first=$(jq -r '.[0].lava_id' <<<"$lj")
mkdir -p "$TOP/build/test-logs"
lava_api GET "api/v0.2/jobs/$first/logs/" >"$TOP/build/test-logs/lava-job-complete.yaml"
lava_api GET "api/v0.2/jobs/$first/" | jq -r .definition >"$TMP/lava-def.yaml"
TITLE="$TITLE" $PY - "$TMP/lava-def.yaml" "$LAVA_TAG" <<'PY' || fail "LAVA's definition is not what perflab meant"
import os, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
m = d["metadata"]
assert m["perflab.title"] == os.environ["TITLE"], m["perflab.title"]
assert [list(a)[0] for a in d["actions"]] == ["deploy", "boot", "test"], d["actions"]
assert d["tags"] == [sys.argv[2]], d["tags"]
assert d["context"]["no_kvm"] is True
assert "-icount shift=0,sleep=off" in d["context"]["extra_options"]
cb = d["notify"]["callbacks"][0]
assert cb["header"] == "X-Perflab-Token" and cb["token"].startswith("plj_")
print("LAVA's definition: metadata", m)
PY
yes_def=$(lava_api GET "api/v0.2/jobs/$(jq -r '[.[] | select(.lava_id)][1].lava_id' <<<"$lj")/" | jq -r .definition |
	$PY -c 'import sys, yaml; v = yaml.safe_load(sys.stdin)["metadata"]["perflab.variant"]; print(type(v).__name__, v)')
echo "second LAVA job's variant: $yes_def"
[ "$yes_def" = "str yes" ] || fail "variant read back as $yes_def"
sj=$(api GET "/api/v1/lava/jobs/$(jq -r '.[0].id' <<<"$lj")" "$ADMIN")
expect_status 200 "GET the LAVA job"
grep -q 'plj_REDACTED' <<<"$sj" || fail "the stored definition does not redact the job token"
# For the record: a definition perflab produced, and what LAVA's callback
# sent (LAVA keeps the callback's data as job_data.gz).
jq -r .definition <<<"$sj" >"$TOP/build/test-logs/lava-definition.yaml"
cb=$(find "$LAVA_DIR/media" -name job_data.gz | head -n1)
[ -n "$cb" ] && zcat "$cb" | jq . >"$TOP/build/test-logs/lava-callback.json"
if grep -qE 'plj_[0-9a-f]{32}' <<<"$sj"; then fail "a job token in the API"; fi

# The kernel without init: Incomplete in LAVA, retried, failed with LAVA's reason.
wait_state "$NOINIT" 300
exp=$(api GET "/api/v1/experiments/$NOINIT" "$ADMIN")
jq -c '[.jobs[] | {state, attempt, failure_reason}], [.lava_jobs[] | {lava_id, lava_health, outcome, message}]' <<<"$exp"
check "$state" = failed "the no-init experiment failed"
check "$(jq -r '.jobs[0].attempt' <<<"$exp")" -eq 2 "tried --max-attempts (2) times"
check "$(jq '[.lava_jobs[] | select(.lava_health == "Incomplete")] | length' <<<"$exp")" -eq 2 "two Incomplete LAVA jobs"
check "$(jq -r '.jobs[0].failure_reason' <<<"$exp")" = boot "failure reason boot (the bench never started)"
jq -r '.jobs[0].failure_log' <<<"$exp" | grep -q "LAVA job Incomplete" ||
	fail "the failure log does not carry LAVA's reason"
jq -r '.jobs[0].failure_log' <<<"$exp" | head -n 3
lava_api GET "api/v0.2/jobs/$(jq -r '.lava_jobs[0].lava_id' <<<"$exp")/logs/" \
	>"$TOP/build/test-logs/lava-job-incomplete.yaml"

# The lab whose callbacks are lost: polling alone.
wait_state "$LOST" 240
exp=$(api GET "/api/v1/experiments/$LOST" "$ADMIN")
check "$state" = done "the lost-callback experiment finished by polling"
check "$(jq '.lava_jobs[0].callbacks' <<<"$exp")" -eq 0 "no callback reached perflabd"
check "$(jq -r '.lava_jobs[0].outcome' <<<"$exp")" = result "its LAVA job's result came back"

# A toggle boot is one LAVA job: 4 runs, one boot, positions 0-3, exact.
wait_state "$TOG" 420
T_TOG=$(date +%s)
exp=$(api GET "/api/v1/experiments/$TOG" "$ADMIN")
[ "$state" = done ] || fail "toggle $state: $(jq -c '[.jobs[] | {variant, state, attempt, failure_reason, message}], [.lava_jobs[] | {lava_id, outcome, message}]' <<<"$exp")"
check "$(jq '.runs | length' <<<"$exp")" -eq 4 "four toggle runs"
check "$(jq '.lava_jobs | length' <<<"$exp")" -eq 1 "one LAVA job for the boot"
check "$(jq '[.runs[].boot_id] | unique | length' <<<"$exp")" -eq 1 "one boot"
check "$(jq -r '[.runs[].boot_pos] | sort | map(tostring) | join(",")' <<<"$exp")" = "0,1,2,3" "positions 0..3"
d=$(jq '([.runs[] | select(.variant == "b") | .summary.ns_per_io] | add / length) -
	([.runs[] | select(.variant == "a") | .summary.ns_per_io] | add / length)' <<<"$exp")
echo "toggle through LAVA: canary 64 costs $d instructions/IO"
check "$(jq -n "$d > 64 * 2.5 and $d < 64 * 4.5")" = true "~3 instructions per canary step"
check "$(sql "SELECT count(*) FROM exact_profiles ep JOIN runs r ON r.id = ep.run_id WHERE r.experiment_id = $TOG")" -eq 4 \
	"an exact profile for every toggle run"
wait_state "$TOGBAD" 300
exp=$(api GET "/api/v1/experiments/$TOGBAD" "$ADMIN")
check "$(jq -r '.variants[] | select(.name == "b") | .state' <<<"$exp")" = failed "the refused variant failed"
log=$(jq -r '.variants[] | select(.name == "b") | .failure_reason + ": " + .failure_log' <<<"$exp")
echo "${log:0:300}"
grep -q "^setting: .*refused a setting: $CAN: writing '2000000' failed" <<<"$log" ||
	fail "the reason is not the refused setting: ${log:0:400}"
check "$(jq '[.runs[] | select(.variant == "a")] | length' <<<"$exp")" -eq 1 "the run before it is stored"

# The experiment page shows LAVA's job ids, linked to LAVA.
if command -v node >/dev/null; then
	node "$TOP/tests/lava/page.js" "$BASE" "$ADMIN" "$MAIN" $(jq -r '.[].lava_id' <<<"$lj") ||
		fail "the experiment page does not list the LAVA jobs"
else
	echo "note: node is absent: the page check is skipped"
fi
for f in "$TMP"/body "$TMP/daemon.log"; do
	if grep -qF "$LAVA_TOKEN" "$f"; then fail "LAVA's token in $f"; fi
done
for p in /api/v1/lava/labs "/api/v1/experiments/$MAIN" "/api/v1/experiments/$LOST" /api/v1/hosts; do
	if api GET "$p" "$ADMIN" | grep -qF "$LAVA_TOKEN"; then fail "LAVA's token in $p"; fi
done
T_END=$(date +%s)
njobs=$(lava_api GET "api/v0.2/jobs/?limit=100" | jq .count)
echo "cost: guest $((T_BUILD - T0)) s, LAVA start $((T_LAVA - T_BUILD)) s, control vs canary (10 LAVA jobs) $((T_MAIN - T_LAVA)) s, toggle done at $((T_TOG - T_LAVA)) s, total $((T_END - T0)) s, $njobs LAVA jobs"
exit 0
