#!/usr/bin/env bash
# Description: the local backend runs the variant's setup command, then
# perflab-bench on the target file, and hands back the bench JSON; a setup
# command that fails ends the run as a "bench" failure showing its output;
# the setup gets a clean environment (env -i, a minimal PATH), not the
# runner's, which holds its key (PERFLAB_RUNNER_KEY) - its output is
# uploaded.
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/perflab-runner
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
[ -x "$top/build/perflab-bench" ] || { echo "build/perflab-bench not built"; exit 77; }
d=$(mktemp -d /var/tmp/perflab-local.XXXXXX)
trap 'rm -rf "$d"' EXIT
dd if=/dev/zero of="$d/img" bs=1M count=32 status=none
dd if="$d/img" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
	{ echo "no O_DIRECT on $d"; exit 77; }
params='{"polled":false,"runtime":2,"warmup":1,"depth":16,"submit_batch":4,"complete_batch":4}'

out=$("$R" try --backend local --target "$d/img" --workdir "$d/w" \
	--setup "echo setup-ran > $d/marker" --bench-params "$params" 2>&1)
echo "$out"
[ -f "$d/marker" ] || { echo "FAIL: setup command did not run"; exit 1; }
grep -q '^run 1: build 0.0s (none) .* mean [1-9]' <<<"$out" || { echo "FAIL: no run summary"; exit 1; }
jq -e '.samples | length >= 2' "$d/w/try-1.json" >/dev/null || { echo "FAIL: no samples"; exit 1; }
jq -e ".params.target == \"$d/img\"" "$d/w/try-1.json" >/dev/null || { echo "FAIL: wrong target"; exit 1; }

out=$("$R" try --backend local --target "$d/img" --workdir "$d/w" \
	--setup "echo nope-sysctl >&2; false" --bench-params "$params" 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || { echo "FAIL: failing setup did not fail the run"; exit 1; }
grep -q "FAILED (bench)" <<<"$out" || { echo "FAIL: wrong reason"; exit 1; }
grep -q "variant setup failed" <<<"$out" && grep -q "nope-sysctl" <<<"$out" ||
	{ echo "FAIL: setup output not reported"; exit 1; }
out=$(PERFLAB_RUNNER_KEY=plk_canary_secretsecret PERFLAB_OTHER=leak \
	"$R" try --backend local --target "$d/img" --workdir "$d/w" \
	--setup "env > $d/env" --bench-params "$params" 2>&1)
[ -s "$d/env" ] || { echo "FAIL: setup did not run: $out"; exit 1; }
cat "$d/env"
! grep -q 'plk_canary_secretsecret\|PERFLAB_OTHER' "$d/env" ||
	{ echo "FAIL: the runner's environment reached the setup script"; exit 1; }
grep -qx 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$d/env" ||
	{ echo "FAIL: PATH is not the minimal one"; exit 1; }
[ "$(grep -cv '^\(PATH\|HOME\|LANG\|PWD\|SHLVL\|_\)=' "$d/env")" -eq 0 ] ||
	{ echo "FAIL: more than the minimal environment"; exit 1; }
exit 0
