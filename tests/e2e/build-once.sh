#!/usr/bin/env bash
# Description: build once, test on another host, end to end on
# qemu-icount with real kernels. Runner A (role any, the shared kernel
# cache) is told to build the seed's "tag" variant (base + 0001),
# builds it (or finds it cached), uploads it and runs it; runner B (role
# test, an empty kernel cache of its own, same label) then runs a second
# experiment of the same variant: the claim names the stored image, B
# downloads it (every file's sha256 and the digest checked), boots it and
# uploads a valid result, never builds (no build tree in its cache), and
# its bzImage is A's byte for byte. The daemon asked for one build of the
# key. Cost: two qemu-icount boots (about a minute each) and, when the
# shared cache lacks the image, one incremental patched build.
. "$(dirname "$0")/../api/lib.sh"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 is not installed"
RUNNER=$TOP/build/perflab-runner
for f in "$RUNNER" "$TOP/build/perflab-bench-static"; do
	[ -x "$f" ] || skip "$f is not built (make; make static-bench)"
done
[ -f "$TOP/build/linux-source-6.1/Makefile" ] || skip "base tree missing (make deps)"
[ -x /bin/busybox ] || skip "busybox-static is not installed"
APID= BPID=
stop_all() {
	for p in $APID $BPID; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	cp "$TMP"/runner-*.log "$TOP/build/test-logs/" 2>/dev/null
	cleanup
}
trap stop_all EXIT
start_daemon
SUB=$(make_key submit e2e)
RA=$(make_key runner ra)
RB=$(make_key runner rb)
KB=$(mktemp -d "$(dirname "$KCACHE")/tmp-build-once.XXXXXX")
chmod 755 "$KB"
trap 'stop_all; rm -rf "$KB"' EXIT
runner() { # runner NAME KEY ROLE KCACHE
	"$RUNNER" --server "$BASE" --key "$2" --backend qemu-icount --name "$1" \
		--label qemu-icount --workdir "$TMP/$1" --kcache "$4" --role "$3" \
		--claim-wait 2 --once >"$TMP/runner-$1.log" 2>&1 &
}
bench='{"runtime":2,"warmup":1,"ios":20000,"target":"nullb","profile":false}'
exp() { jq -n --rawfile p "$TOP/kernel-patches/0001-blk-mq-clear-rqs-on-tag-free.patch" \
	--argjson b "$bench" '{title: "build once", label: "qemu-icount", backend: "qemu-icount",
	runs: 1, max_runs: 1, bench: $b, variants: [{name: "tag", patches: [$p]}]}'; }
wait_done() { # wait_done ID SECONDS
	local st
	for _ in $(seq "$2"); do
		st=$(api GET "/api/v1/experiments/$1" "$SUB" | jq -r .state)
		case $st in done|failed|cancelled) echo "$st"; return ;; esac
		sleep 1
	done
	echo timeout
}

runner a "$RA" any "$KCACHE"
APID=$!
wait_host "$SUB" a
e1=$(api POST /api/v1/experiments "$SUB" "$(exp)" | jq -r .id)
expect_status 201 "experiment 1"
st=$(wait_done "$e1" 1200)
cat "$TMP/runner-a.log"
check "$st" = done "experiment 1 on runner A"
K=$(sql "SELECT key FROM images")
[ -n "$K" ] || fail "runner A stored no image"
grep -q "image ${K:0:12} stored" "$TMP/runner-a.log" || fail "A did not say it stored the image"

runner b "$RB" test "$KB"
BPID=$!
wait_host "$SUB" b
e2=$(api POST /api/v1/experiments "$SUB" "$(exp)" | jq -r .id)
st=$(wait_done "$e2" 600)
cat "$TMP/runner-b.log"
check "$st" = done "experiment 2 on the test host"
check "$(sql "SELECT h.name FROM experiments e JOIN hosts h ON h.id = e.host_id WHERE e.id = $e2")" = b "experiment 2 ran on B"
grep -q "image ${K:0:12} downloaded (.*sha256 checked)" "$TMP/runner-b.log" || fail "B did not download the image"
grep -q "built image" "$TMP/runner-b.log" && fail "B built a kernel"
[ ! -e "$KB/trees" ] || fail "B made a build tree"
cmp "$KB/images/$K/bzImage" "$KCACHE/images/$K/bzImage" || fail "B's bzImage is not A's"
check "$(sql "SELECT count(*) FROM image_builds WHERE key = '$K'")" -eq 1 "one build of the key"
check "$(sql "SELECT count(*) FROM runs WHERE experiment_id = $e2")" -eq 1 "B's result stored"
echo ok
