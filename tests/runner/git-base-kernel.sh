#!/usr/bin/env bash
# Description: a real kernel build of a git base (slow, minutes: runs with
# PERFLAB_GIT_KERNEL=1): a git repo of build/linux-source-6.1 (hard-link
# copy) is built through `perflab-runner try --build-only --git`; a second
# commit that changes one file rebuilds incrementally (few compiles, the
# farm relinks only that file) and a third commit that does not compile
# fails with reason `build`. Prints the timings.
. "$(dirname "$0")/sandbox-lib.sh"
[ "${PERFLAB_GIT_KERNEL:-0}" = 1 ] || { echo "slow real build: set PERFLAB_GIT_KERNEL=1"; exit 77; }
command -v git >/dev/null || { echo "git not installed"; exit 77; }
src=$(readlink -f "$top/build/linux-source-6.1")
[ -f "$src/Makefile" ] || { echo "base tree missing (make deps)"; exit 77; }
# The shared cache: its base-build ccache is warm.
K=$("$top/scripts/kcache-dir.sh")
base=perflab-test-git-$$
repo=$d/repo
h=$(printf '%s' "$repo" | sha256sum | cut -c1-64)
cleanup='rm -rf "$K/git/$h".* "$K"/trees/$base-*; for k in $keys; do rm -rf "$K/images/$k"; done'
keys=
now() { date +%s.%N; }
took() { printf '%s: %.1f s\n' "$1" "$(echo "$(now) - $2" | bc)"; }
g() { git -C "$repo" -c user.name=t -c user.email=t@t -c gc.auto=0 "$@"; }

t=$(now); cp -al "$src" "$repo" || fail "cp -al"; took "hard-link copy" "$t"
t=$(now)
g init -q -b master && g -c core.bigFileThreshold=1m add -A -f && g commit -qm base ||
	fail "git commit"
g config pack.window 0	# deltas cost minutes here; a real kernel repo is packed
c1=$(g rev-parse HEAD); took "git init+add+commit" "$t"

build() { # build COMMIT: one try --build-only, prints its last line
	"$R" try --build-only --backend qemu-icount --workdir "$d/w" --kcache "$K" \
		--git "$repo" --commit "$1" --base "$base" >"$d/out" 2>&1
	echo "rc=$?" >>"$d/out"
	tail -3 "$d/out"
}
edit() { # edit FILE LINE: a new inode, as git or patch would write it
	{ cat "$repo/$1"; echo "$2"; } >"$repo/$1.new" && mv "$repo/$1.new" "$repo/$1"
}
t=$(now); build "$c1"; took "first build of $c1 (clone, checkout, build)" "$t"
grep -q "rc=0" "$d/out" || fail "first build failed: $(tail -30 "$d/out")"
k1=$(awk -v c="$c1" '$4 == c {print $1}' "$d/out"); keys="$k1"
[ -n "$k1" ] || fail "no key with commit $c1"

edit kernel/sched/core.c '/* perflab: a comment-only change */'
g commit -qam "sched: a comment" || fail "commit 2"
c2=$(g rev-parse HEAD)
t=$(now); build "$c2"; took "incremental build of $c2" "$t"
grep -q "rc=0" "$d/out" || fail "second build failed: $(tail -30 "$d/out")"
k2=$(awk -v c="$c2" '$4 == c {print $1}' "$d/out"); keys="$k1 $k2"
[ -n "$k2" ] && [ "$k2" != "$k1" ] || fail "no new key for $c2"
n=$(grep -c '^  CC ' "$K/images/$k2/build.log")
echo "compiles in the incremental build: $n"
[ "$n" -lt 40 ] || fail "$n compiles for a one-file change"
grep -q ' kernel/sched/core.o' "$K/images/$k2/build.log" || fail "core.c not recompiled"

edit kernel/sched/core.c '#error perflab: this commit does not build'
g commit -qam "sched: broken" || fail "commit 3"
c3=$(g rev-parse HEAD)
t=$(now); build "$c3"; took "build of the broken $c3" "$t"
grep -q "build: FAILED (build)" "$d/out" || fail "broken commit: $(tail -20 "$d/out")"
echo ok
exit 0
