# Shared by tests/e2e/exact-profile-*.sh: boots of cached kernels with
# `perflab-runner try` on qemu-icount (the perflab-insn plugin is on by
# default) and the exact perf diff of their results.
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
R=$TOP/build/perflab-runner
KP=$TOP/kernel-patches
IOS=${IOS:-200000}
PARAMS="{\"runtime\":3,\"warmup\":1,\"ios\":$IOS,\"target\":\"nullb\",\"profile\":true}"

. "$(dirname "${BASH_SOURCE[0]}")/../../lib/lib.sh"

command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"
for f in "$R" "$TOP/build/perflab-bench-static" "$TOP/build/perflab-insn.so"; do
	[ -e "$f" ] || skip "$f is not built (make; make static-bench)"
done
[ -f "$TOP/build/linux-source-6.1/Makefile" ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
# Kernel cache reachable by the build user; TMP on its filesystem.
KCACHE=${PERFLAB_TEST_KCACHE:-$("$TOP/scripts/kcache-dir.sh")} || fail "no kernel cache"
TMP=$(mktemp -d "$(dirname "$KCACHE")/tmp-exact.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# boot NAME [try args]: one qemu-icount run; its bench JSON in $TMP/NAME.json
# ("profile": true is asked for, as the seed experiments do: the runner
# must drop the sampler on this tier, or its interrupts would be counted).
boot() {
	local name=$1
	shift
	"$R" try --backend qemu-icount --workdir "$TMP/$name" \
		--kcache "$KCACHE" --runs 1 --bench-params "$PARAMS" \
		"$@" >"$TMP/$name.out" 2>"$TMP/$name.err" ||
		fail "$name: $(tail -20 "$TMP/$name.out" "$TMP/$name.err")"
	cp "$TMP/$name/try-1.json" "$TMP/$name.json" || fail "$name: no result"
	jq -e '.exact_profile.symbols | length > 10' "$TMP/$name.json" >/dev/null ||
		fail "$name: no exact profile: $(grep -i exact "$TMP/$name.err")"
	jq -e '.profile == null' "$TMP/$name.json" >/dev/null ||
		fail "$name: the sampled profile ran next to the exact one"
	grep '^run' "$TMP/$name.out"
}

# diff BASE NEW: the table on stdout, rows in $TMP/diff.json
diff_exact() {
	python3 "$TOP/tests/e2e/lib/exact_diff.py" --base "$TMP/$1.json" \
		--new "$TMP/$2.json" --top 8 --json "$TMP/diff.json" ||
		fail "exact_diff.py failed"
}

# rows JQ-FILTER: evaluate against the diff rows
rows() { jq -r "$1" "$TMP/diff.json"; }
