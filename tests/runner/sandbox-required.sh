#!/usr/bin/env bash
# Description: builds never run outside the sandbox and die with the
# runner.  With bwrap missing (PERFLAB_BWRAP pointing nowhere) a variant
# fails as internal with a message naming bubblewrap and the tree's
# Makefile never runs; with bwrap, killing the runner (SIGKILL) mid-build
# kills the sandboxed make too (--die-with-parent, own pid namespace).
# Uses a small fake kernel tree: no kernel is built.
. "$(dirname "$0")/sandbox-lib.sh"
rpid=
cleanup='[ -n "$rpid" ] && kill -9 "$rpid" 2>/dev/null'
tag=perflab-sbreq-$$-$RANDOM
mkdir -p "$d/tree" "$d/cfg"
: >"$d/cfg/qemu.config"
# The fake tree's "configure" step marks that it ran, then sleeps.
printf 'tinyconfig olddefconfig:\n\techo ran >>/tmp/ran; touch $(O)/ran-here; sleep 300 # %s\n' "$tag" >"$d/tree/Makefile"
chmod -R a+rX "$d/tree"

out=$(PERFLAB_BWRAP=/nonexistent/bwrap "$R" try --backend qemu-icount --workdir "$d/w" \
	--kcache "$d/kc" --tree "$d/tree" --configs "$d/cfg" 2>&1)
echo "$out"
grep -q "FAILED (internal)" <<<"$out" || fail "no internal failure without bwrap"
grep -q "bubblewrap" <<<"$out" || fail "the reason does not name bubblewrap"
[ -z "$(find "$d/kc" -name ran-here)" ] || fail "the Makefile ran without the sandbox"

"$R" try --backend qemu-icount --workdir "$d/w" --kcache "$d/kc" --tree "$d/tree" \
	--configs "$d/cfg" >"$d/out" 2>&1 &
rpid=$!
for _ in $(seq 100); do
	[ -n "$(find "$d/kc" -name ran-here 2>/dev/null)" ] && break
	sleep 0.2
done
[ -n "$(find "$d/kc" -name ran-here)" ] || { cat "$d/out"; fail "the sandboxed make did not start"; }
pgrep -f "$tag" >/dev/null || fail "no sandboxed process found (test broken)"
kill -9 "$rpid"
wait "$rpid" 2>/dev/null
rpid=
for _ in $(seq 50); do pgrep -f "$tag" >/dev/null || break; sleep 0.1; done
left=$(pgrep -f "$tag")
[ -z "$left" ] || fail "sandboxed processes outlived the runner: $left"
echo ok
