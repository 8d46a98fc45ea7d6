#!/usr/bin/env bash
# Description: a variant's setup script (local backend; the same code runs
# it on kexec hosts) gets a clean environment: not the runner's, which
# holds its key (PERFLAB_RUNNER_KEY), and whose output is uploaded; only a
# minimal PATH, HOME and LANG.
top=$(cd "$(dirname "$0")/../.." && pwd)
R=$top/build/perflab-runner
[ -x "$R" ] || { echo "build/perflab-runner not built"; exit 77; }
[ -x "$top/build/perflab-bench" ] || { echo "build/perflab-bench not built"; exit 77; }
[ -x /usr/bin/env ] || { echo "no /usr/bin/env"; exit 77; }
d=$(mktemp -d /var/tmp/perflab-local.XXXXXX)
trap 'rm -rf "$d"' EXIT
dd if=/dev/zero of="$d/img" bs=1M count=16 status=none
dd if="$d/img" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null ||
	{ echo "no O_DIRECT on $d"; exit 77; }
params='{"polled":false,"runtime":2,"warmup":1,"depth":16,"submit_batch":4,"complete_batch":4}'

out=$(PERFLAB_RUNNER_KEY=plk_canary_secretsecret PERFLAB_OTHER=leak \
	"$R" try --backend local --target "$d/img" --workdir "$d/w" \
	--setup "env > $d/env" --bench-params "$params" 2>&1)
[ -s "$d/env" ] || { echo "FAIL: setup did not run: $out"; exit 1; }
cat "$d/env"
if grep -q 'plk_canary_secretsecret\|PERFLAB_OTHER' "$d/env"; then
	echo "FAIL: the runner's environment reached the setup script"
	exit 1
fi
grep -qx 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$d/env" ||
	{ echo "FAIL: PATH is not the minimal one"; exit 1; }
[ "$(grep -cv '^\(PATH\|HOME\|LANG\|PWD\|SHLVL\|_\)=' "$d/env")" -eq 0 ] ||
	{ echo "FAIL: more than the minimal environment"; exit 1; }
echo ok
