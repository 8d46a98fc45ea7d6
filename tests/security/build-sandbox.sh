#!/usr/bin/env bash
# Description: a patch whose Makefile, at build time, tries to write
# outside the tree, change the worktree, read the runner's key and
# environment, open a network socket, signal the runner, and replace the
# runner's files (build log, ktree state, images/, the object dir and
# ccache of base builds) goes through the real
# runner build path (perflab-runner try on the real base tree).  The
# build fails on its own $(error), every attempt fails inside the
# sandbox, nothing outside changes, the state stays root's, and the
# worktree equals the pristine tree afterwards (diff -r --no-dereference).
# Then a quoted-name patch to the Makefile is applied and fully reset,
# and a symlink-mode patch is refused by the runner itself.
. "$(dirname "$0")/../runner/sandbox-lib.sh"
tree=$(readlink -f "$top/build/linux-source-6.1")
[ -f "$tree/Makefile" ] || { echo "base tree missing (make deps)"; exit 77; }
lpid=
cleanup='[ -n "$lpid" ] && kill "$lpid" 2>/dev/null'
K=$d/kc
secret=plk-SECRET-$$-$RANDOM
echo "key-file-$secret" >"$d/runner.key"
chmod 600 "$d/runner.key"

# A listener the build must not reach.
python3 - "$d/port" "$d/connected" <<'PY' &
import socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
c, _ = s.accept(); open(sys.argv[2], "w").write("yes")
PY
lpid=$!
for _ in $(seq 50); do [ -s "$d/port" ] && break; sleep 0.1; done
port=$(cat "$d/port")

hostile() { # the script the patched Makefile runs
cat <<SH
echo "hostile: running as uid \$(id -u)"
leak() { echo "LEAK: \$*"; }
echo pwned >"$d/outside" 2>/dev/null && leak "wrote outside the tree"
echo evil >>Makefile 2>/dev/null && leak "changed the worktree"
touch new-in-worktree 2>/dev/null && leak "created a file in the worktree"
for t in "$K"/trees/*; do
	[ -e "\$t/state" ] && leak "sees the runner state \$t/state"
	[ -e "\$t/obj-base" ] && leak "sees the base builds' object dir"
	ln -sf /proc/self/environ "\$t/state/build.log" 2>/dev/null && leak "replaced build.log"
	echo ../../../etc/x >"\$t/state/copies" 2>/dev/null && leak "rewrote the ktree state"
done
mkdir "$K/images/poison" 2>/dev/null && leak "wrote images/"
ls -d "$K"/ccache-*-base 2>/dev/null && leak "sees the base builds' ccache"
cat "$d/runner.key" 2>/dev/null && leak "read the key file"
cat /proc/*/environ 2>/dev/null | tr '\0' '\n' | grep -q "$secret" && leak "read the runner environment"
env | grep -q "$secret" && leak "inherited the runner environment"
kill -0 $$ 2>/dev/null && leak "can signal the test"
python3 -c 'import socket; socket.create_connection(("127.0.0.1", $port), 2)' 2>/dev/null && leak "network"
bash -c 'echo hi >/dev/tcp/127.0.0.1/$port' 2>/dev/null && leak "network via bash"
echo "hostile: done"
SH
}
{
	printf 'diff --git a/Makefile b/Makefile\n--- a/Makefile\n+++ b/Makefile\n'
	printf '@@ -1,2 +1,4 @@\n # SPDX-License-Identifier: GPL-2.0\n'
	printf '+$(shell sh perflab-hostile.sh >&2)\n+$(error perflab-hostile: stop)\n VERSION = 6\n'
	n=$(hostile | wc -l)
	printf 'diff --git a/perflab-hostile.sh b/perflab-hostile.sh\nnew file mode 100644\n'
	printf -- '--- /dev/null\n+++ b/perflab-hostile.sh\n@@ -0,0 +1,%d @@\n' "$n"
	hostile | sed 's/^/+/'
} >"$d/hostile.patch"

try() { # try PATCH: one build of PATCH through the real runner path
	PERFLAB_RUNNER_KEY=$secret "$R" try --backend qemu-icount --workdir "$d/w" \
		--kcache "$K" --tree "$tree" --patch "$1" 2>&1
}
# A symlink mode the daemon would refuse: the runner refuses it too.
printf 'diff --git a/ln b/ln\nnew file mode 100644\nindex 0000000..1111111 120000\n--- /dev/null\n+++ b/ln\n@@ -0,0 +1 @@\n+/etc\n' >"$d/link.patch"
out=$(try "$d/link.patch")
echo "$out"
grep -q "FAILED (patch_apply)" <<<"$out" && grep -q "symbolic links" <<<"$out" ||
	fail "symlink mode not refused by the runner"
t=$(echo "$K"/trees/*-s)
[ -d "$t" ] || fail "no tree"
[ ! -e "$t/src/ln" ] && [ ! -L "$t/src/ln" ] || fail "ln exists in the worktree"
# What base builds (controls) would have left: a patched build must not see it.
for b in "$t/obj-base" "$K/ccache-$(id -u nobody)-base"; do
	mkdir -p "$b" && echo clean >"$b/marker" && chown -R nobody "$b"
done
touch "$d/start"
out=$(try "$d/hostile.patch")
echo "$out"
grep -q "FAILED (build)" <<<"$out" || fail "the hostile build did not fail as build"
grep -q "hostile: done" <<<"$out" || fail "the hostile script did not run (test broken)"
grep -q "hostile: running as uid 0" <<<"$out" && fail "the build ran as root"
grep "LEAK" <<<"$out" && fail "the sandbox leaked"
grep -q "$secret" <<<"$out" && fail "the secret reached the build output"
[ ! -e "$d/outside" ] || fail "a file outside the tree was written"
[ ! -e "$d/connected" ] || fail "the build opened a connection"
[ -z "$(ls "$K/images")" ] || fail "images/ changed: $(ls "$K/images")"
for b in "$t/obj-base" "$K/ccache-$(id -u nobody)-base"; do
	[ "$(ls "$b")" = marker ] && [ "$(cat "$b/marker")" = clean ] || fail "$b changed"
done
for f in "$t/state" "$t/state/build.log" "$t/state/copies" "$t/in" "$K/images" "$t"; do
	[ "$(stat -c %u "$f")" = 0 ] && [ ! -L "$f" ] || fail "$f is not root's"
done
[ "$(stat -c %a "$t/state")" = 700 ] || fail "state is not 0700"
grep -q "\.\." "$t/state/copies" && fail "ktree state has '..'"
echo "comparing the worktree with the pristine tree"
diff -r --no-dereference "$tree" "$t/src" || fail "worktree differs from the pristine tree"
changed=$(find "$tree" -newer "$d/start" | head)
[ -z "$changed" ] || fail "pristine tree changed: $changed"

# A quoted name: GNU patch patches the real Makefile; applied, then reset.
printf 'diff --git "a/Makefile" "b/Makefile"\n--- "a/Makefile"\n+++ "b/Makefile"\n@@ -1,2 +1,3 @@\n # SPDX-License-Identifier: GPL-2.0\n+$(error perflab-quoted: patched)\n VERSION = 6\n' >"$d/quoted.patch"
out=$(try "$d/quoted.patch")
echo "$out"
grep -q "perflab-quoted: patched" <<<"$out" || fail "the quoted-name patch was not applied"
cmp "$tree/Makefile" "$t/src/Makefile" || fail "quoted-name patch left the Makefile changed"
diff -r --no-dereference "$tree" "$t/src" || fail "worktree differs after the quoted patch"

echo ok
