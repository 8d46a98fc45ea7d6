#!/usr/bin/env bash
# Description: the kexec backend end to end on a VM that stands in for a
# dedicated NVMe test host (tests/kexec-vm/README.md, `make kexec-host`).
# A real perflabd on loopback (reached only through a restricted QEMU
# guestfwd) hands jobs to the real perflab-runner in the VM, which kexecs
# into each variant kernel (prebuilt on this machine, found on the image
# disk by its cache key), benches the emulated NVMe drive with polled
# IO, uploads and reboots into the default kernel. Checked through the
# API and SQLite: an experiment of two variants (base, 0003 canary) x 2
# runs completes with exactly one run per (variant, run); a power cut in
# the middle of a run re-runs that job once (attempt 2, "internal" with
# the reason), nothing lost or doubled; a variant that panics in an
# initcall fails "boot" with the panic from the console; a variant whose
# uname -r is not its build's fails "boot" with both releases. Prints the
# timeline of every job through the kexecs (phase, kernel, time).
# ~4 min in the VM with the images cached (a cold build of the kexec-vm
# kernels: ~30 min on 2 busy cores); not part of `make test`.
. "$(dirname "$0")/../api/lib.sh"
. "$TOP/tests/kexec-vm/vm.sh"

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
command -v mke2fs >/dev/null || skip "mke2fs (e2fsprogs) is not installed"
for f in "$KH/bzImage" "$KH/initrd.cpio" "$TOP/build/perflab-runner"; do
	[ -f "$f" ] || skip "$f missing (make kexec-host)"
done
R=$TOP/build/perflab-runner
KCACHE=${KCACHE:-$("$TOP/scripts/kcache-dir.sh")}
OUT=$TOP/build/test-logs/kexec-vm
TIMEOUT=${TIMEOUT:-2400}
rm -rf "$OUT"
mkdir -p "$OUT"

finish() {
	vm_power_off
	[ -n "${TL_PID:-}" ] && kill "$TL_PID" 2>/dev/null
	cp "$TMP"/vm/console-*.log "$TMP"/vm/power.log "$TMP/daemon.log" "$OUT/" 2>/dev/null
	cleanup
}
trap finish EXIT

# Long enough for a kexec and a TCG boot between two heartbeats.
start_daemon --lease-seconds 180 --max-attempts 2
SUB=$(make_key submit rehearsal)
RK=$(make_key runner kexec-vm)
# The VM's runner registers kexec-vm (kexec) once it is up; the
# experiments below may name only a backend a registered host runs.
register_host "$RK" kexec-vm kexec-vm kexec

bench='{"depth":128,"submit_batch":32,"complete_batch":32,"bs":512,
 "polled":true,"fixedbufs":true,"regfiles":true,"random":true,"threads":1,
 "runtime":3,"warmup":1,"profile":false,"ios":0,"target":"nvme"}'
canary=$TOP/kernel-patches/0003-block-canary-spin-in-submit-path.patch
panic=$TOP/tests/kexec-vm/patches/panic-on-boot.patch
mism=$TOP/tests/kexec-vm/patches/release-mismatch.patch

body=$(api POST /api/v1/experiments "$SUB" "$(jq -n --rawfile c "$canary" \
	--argjson b "$bench" '{title:"kexec rehearsal: base vs canary",
	label:"kexec-vm",backend:"kexec",config:"qemu",runs:2,max_runs:2,
	bench:$b,variants:[{name:"base"},{name:"canary",patches:[$c]}]}')")
expect_status 201 "create the base/canary experiment"
E1=$(jq -r .id <<<"$body")
body=$(api POST /api/v1/experiments "$SUB" "$(jq -n --rawfile p "$panic" \
	--rawfile m "$mism" --argjson b "$bench" '{title:"kexec rehearsal: faults",
	label:"kexec-vm",backend:"kexec",config:"qemu",runs:1,max_runs:1,
	bench:$b,variants:[{name:"panic",patches:[$p]},
	{name:"mismatch",patches:[$m]}]}')")
expect_status 201 "create the fault experiment"
E2=$(jq -r .id <<<"$body")

# Kernels are built here, never in the VM: every variant's patch set, as
# the daemon serves it, through the runner's own cache; the VM's image
# disk gets images/<key> exactly as its --kcache would hold them.
img=$TMP/images
mkdir -p "$img/images"
# Patched images are built in the submitter's trust domain (the claim's
# trust_domain, docs/contracts.md section 6), so the keys are the VM's.
dom=$(printf 'perflab-trust-domain-v1\n%s' "$(sql "SELECT lower(hex(hash)) FROM api_keys WHERE name = 'rehearsal'")" |
	sha256sum | cut -c1-16)
cp "$KH/initrd.cpio" "$img/"
for v in $(sql "SELECT id FROM variants WHERE experiment_id IN ($E1, $E2)"); do
	args=()
	for p in $(sql "SELECT patch_id FROM variant_patches WHERE variant_id = $v ORDER BY position"); do
		# writefile(): byte for byte (the shell would add a newline)
		sql "SELECT writefile('$TMP/p$p.patch', raw) FROM patches WHERE id = $p" >/dev/null
		args+=(--patch "$TMP/p$p.patch")
	done
	line=$("$R" try --build-only --backend kexec --config qemu \
		--kcache "$KCACHE" --workdir "$TMP/try" --trust-domain "$dom" \
		"${args[@]}" 2>>"$OUT/prebuild.log" |
		tail -n1)
	read -r key release image <<<"$line"
	[ -f "$image" ] || fail "prebuilding variant $v: $line $(tail -5 "$OUT/prebuild.log")"
	echo "variant $v: $release $key"
	cp -r "$(dirname "$image")" "$img/images/$key"
done
mke2fs -q -t ext4 -d "$img" -L images "$TMP/vm.images.ext4" 256M ||
	fail "mke2fs images"

vm_setup "$TMP/vm" "${BASE##*:}"
mv "$TMP/vm.images.ext4" "$TMP/vm/images.ext4"
mkdir -p "$TMP/state"
cat >"$TMP/state/runner.env" <<EOT
PERFLAB_SERVER=http://10.0.2.100:8080
PERFLAB_RUNNER_KEY=$RK
PERFLAB_NAME=kexec-vm
PERFLAB_ARGS="--claim-wait 5"
EOT
mke2fs -q -t ext4 -d "$TMP/state" -L state "$TMP/vm/state.ext4" 64M || fail "mke2fs state"

# Timeline: job state/phase changes from the daemon and each kernel the VM
# comes up on (its /init prints "perflab-host: up kernel=... job=...").
timeline() {
	local prev="" now seen=0 cur
	while sleep 0.5; do
		now=$(date +%s.%N | cut -c1-14)
		cur=$(sql "SELECT id || ' a' || attempt || ' ' || state || ' ' ||
			coalesce(phase, '-') || ' ' || coalesce(message, '')
			FROM jobs ORDER BY id" 2>/dev/null) || continue
		diff <(echo "$prev") <(echo "$cur") | sed -n "s/^> /$now job /p"
		prev=$cur
		cur=$(cat "$TMP"/vm/console-*.log 2>/dev/null | tr -d '\r' |
			grep -aE 'perflab-host: (up|kexec|reboot)|Kernel panic|perflab-runner: (job|resuming|phase)' | wc -l)
		if [ "$cur" -gt "$seen" ]; then
			cat "$TMP"/vm/console-*.log | tr -d '\r' |
				grep -aE 'perflab-host: (up|kexec|reboot)|Kernel panic|perflab-runner: (job|resuming|phase)' |
				tail -n $((cur - seen)) | sed "s/^/$now vm  /"
			seen=$cur
		fi
	done
}
timeline >"$OUT/timeline.txt" 2>/dev/null &
TL_PID=$!

start=$(date +%s)
vm_power_on

# Fault 1: cut the power once, in the middle of the first run phase.
cut_job=
for ((i = 0; i < TIMEOUT * 2; i++)); do
	cut_job=$(sql "SELECT id FROM jobs WHERE state IN ('claimed', 'running') AND phase = 'run' LIMIT 1")
	[ -n "$cut_job" ] && break
	sleep 0.5
done
[ -n "$cut_job" ] || fail "no job reached the run phase: $(tail -30 "$TMP"/vm/console-*.log)"
sleep 1
vm_power_cut
echo "power cut during job $cut_job at +$(($(date +%s) - start))s"

wait_done() {
	local i
	for ((i = 0; i < TIMEOUT; i++)); do
		state=$(api GET "/api/v1/experiments/$1" "$SUB" | jq -r .state)
		case $state in done | failed | cancelled) return ;; esac
		sleep 1
	done
	state="timeout($state)"
}
wait_done "$E1"
echo "base/canary experiment: $state after $(($(date +%s) - start))s"
e1_state=$state
wait_done "$E2"
echo "fault experiment: $state after $(($(date +%s) - start))s"
sleep 1
kill "$TL_PID" 2>/dev/null
TL_PID=

echo "--- timeline (host time; job ID aATTEMPT state phase message | vm console)"
t0=$(head -n1 "$OUT/timeline.txt" | cut -d' ' -f1)
awk -v t0="$t0" '{ $1 = sprintf("%+8.1fs", $1 - t0); print }' "$OUT/timeline.txt"
echo "--- job events"
sql "SELECT e.job_id, v.name, e.attempt, e.event, datetime(e.at, 'unixepoch'),
	coalesce(e.reason, '') FROM job_events e JOIN jobs j ON j.id = e.job_id
	JOIN variants v ON v.id = j.variant_id ORDER BY e.id"
echo "--- failure logs (first line, and the panic line when there is one)"
for ev in $(sql "SELECT id FROM job_events WHERE event = 'failed' ORDER BY id"); do
	sql "SELECT 'job ' || job_id || ' attempt ' || attempt || ': ' || reason
		FROM job_events WHERE id = $ev"
	sql "SELECT log FROM job_events WHERE id = $ev" |
		grep -a -m2 -E '^[a-z]|Kernel panic - not syncing' | sed 's/^/    /'
done
echo "--- runs"
# A run's values are rows of run_metrics (schema 0007), by metric name.
sql "SELECT r.id, v.name, 'run ' || r.run_index, 'attempt ' || r.attempt,
	r.kernel, printf('%.0f IOPS', m.value) FROM runs r JOIN variants v
	ON v.id = r.variant_id LEFT JOIN run_metrics m ON m.run_id = r.id AND
	m.metric = 'iops' ORDER BY r.id"

[ "$e1_state" = done ] || fail "base/canary experiment ended '$e1_state'"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $E1")" -eq 4 \
	"runs of the base/canary experiment"
check "$(sql "SELECT count(*) FROM runs r JOIN run_metrics m ON m.run_id = r.id
	AND m.metric = 'iops' WHERE r.experiment_id = $E1 AND m.value > 0")" -eq 4 \
	"every run of the base/canary experiment has its IOPS"
check "$(sql "SELECT count(DISTINCT variant_id || '/' || run_index) FROM runs
	WHERE experiment_id = $E1")" -eq 4 "one run per (variant, run index)"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $E1 AND
	kernel NOT LIKE '%-perflab'")" -eq 0 "every run on a -perflab kernel"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $E1 AND
	json_extract(params, '$.polled') = 1")" -eq 4 "every run polled the NVMe drive"
check "$(sql "SELECT count(*) FROM runs WHERE job_id = $cut_job")" -eq 1 \
	"the power-cut job has exactly one run"
check "$(sql "SELECT max(attempt) FROM jobs WHERE id = $cut_job")" -eq 2 \
	"the power-cut job was re-run once"
check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $cut_job AND
	event = 'failed' AND reason = 'internal' AND
	log LIKE '%restarted during the run%'")" -eq 1 \
	"the power cut is reported as a restart during the run"
pj=$(sql "SELECT j.id FROM jobs j JOIN variants v ON v.id = j.variant_id
	WHERE v.experiment_id = $E2 AND v.name = 'panic'")
mj=$(sql "SELECT j.id FROM jobs j JOIN variants v ON v.id = j.variant_id
	WHERE v.experiment_id = $E2 AND v.name = 'mismatch'")
check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $pj AND
	event = 'failed' AND reason = 'boot' AND
	log LIKE '%Kernel panic - not syncing: perflab rehearsal%'")" -ge 1 \
	"the panicking variant fails boot with the panic from the console"
check "$(sql "SELECT count(*) FROM job_events WHERE job_id = $mj AND
	event = 'failed' AND reason = 'boot' AND
	log LIKE '%reports release %-perflab-mismatch, its build produced %-perflab%'")" -ge 1 \
	"the release-mismatch variant fails boot with both releases"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $E2")" -eq 0 \
	"no run uploaded by a failed variant"
echo "rehearsal: $(($(date +%s) - start))s in the VM, $(vm_boots) boots"
exit 0
